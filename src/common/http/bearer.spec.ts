import { bearerToken, isOperatorKey } from './bearer';

describe(bearerToken.name, () => {
  it.each([
    ['Bearer abc', 'abc'],
    ['bearer abc', 'abc'],
    ['Bearer  abc ', 'abc'],
    ['Basic abc', null],
    ['Bearer', null],
    ['Bearer a b', null],
    [undefined, null],
  ])('reads %p as %p', (header, expected) => expect(bearerToken(header)).toBe(expected));
});

describe(isOperatorKey.name, () => {
  const adminKey = 'operator-key-0123456789';

  it('accepts only the operator key itself', () => {
    expect(isOperatorKey(adminKey, adminKey)).toBe(true);
    expect(isOperatorKey(`${adminKey}x`, adminKey)).toBe(false);
    expect(isOperatorKey('operator', adminKey)).toBe(false);
    expect(isOperatorKey(null, adminKey)).toBe(false);
  });
});
