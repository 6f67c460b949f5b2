import { decodeLogCursor, encodeLogCursor } from './log-cursor';

describe('log cursor', () => {
  it('decodes what it encodes', () => {
    const cursor = { timestamp: new Date('2026-01-31T09:30:00.123Z'), id: '9007199254740993' };
    expect(decodeLogCursor(encodeLogCursor(cursor))).toEqual(cursor);
  });

  it.each([
    ['', 'empty'],
    ['not a cursor!', 'characters outside base64url'],
    [Buffer.from('12.x').toString('base64url'), 'an id that is not digits'],
    [Buffer.from('99999999999999999.1').toString('base64url'), 'a timestamp out of range'],
    [Buffer.from('1.2.3').toString('base64url'), 'extra parts'],
    ['A'.repeat(65), 'too long'],
  ])('refuses %p (%s)', (value) => {
    expect(decodeLogCursor(value)).toBeNull();
  });

  it('refuses a value that is not a string', () => {
    expect(decodeLogCursor(42)).toBeNull();
  });
});
