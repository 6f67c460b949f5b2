import { jsonDepth } from '../common/validation/json-depth';
import { LOG_DATA_MAX_DEPTH, TOO_DEEP_MARKER, storableJson } from './storable-json';

describe(storableJson.name, () => {
  it('replaces lone surrogates in text, values and keys with U+FFFD, at any depth', () => {
    const value = {
      reply: 'caf\ud800',
      ['k\udfff']: ['ok', { nested: '\udbff\u0041' }],
    };
    expect(storableJson(value)).toEqual({
      reply: 'caf\ufffd',
      ['k\ufffd']: ['ok', { nested: '\ufffdA' }],
    });
    expect(storableJson('cut \ud83d')).toBe('cut \ufffd');
  });

  it('keeps well-formed text, emoji included, and other values as they are', () => {
    const value = { a: 'Grüße 😀', n: 1.5, b: false, z: null, list: [1, 'x'] };
    expect(storableJson(value)).toEqual(value);
    expect(storableJson(42)).toBe(42);
  });

  it('keeps a __proto__ key from parsed JSON as an own key', () => {
    const parsed = JSON.parse('{"__proto__":{"polluted":"\\ud800"}}') as object;
    const out = storableJson(parsed) as Record<string, unknown>;
    expect(Object.keys(out)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(out)).toBe(Object.prototype);
    expect(JSON.stringify(out)).toBe('{"__proto__":{"polluted":"\ufffd"}}');
  });

  it(`replaces what nests deeper than ${LOG_DATA_MAX_DEPTH} containers with a marker`, () => {
    const nested = (levels: number): unknown => {
      let value: unknown = 'bottom';
      for (let i = 0; i < levels; i++) value = i % 2 ? [value] : { a: value };
      return value;
    };
    expect(storableJson(nested(LOG_DATA_MAX_DEPTH))).toEqual(nested(LOG_DATA_MAX_DEPTH));
    const capped = storableJson(nested(LOG_DATA_MAX_DEPTH + 10));
    expect(jsonDepth(capped)).toBe(LOG_DATA_MAX_DEPTH);
    expect(JSON.stringify(capped)).toContain(TOO_DEEP_MARKER);
    expect(JSON.stringify(capped)).not.toContain('bottom');
  });

  it('returns a value with nothing to replace itself, and never changes the value it is given', () => {
    const clean = { a: 'Grüße', list: [{ b: 1 }], nested: { c: null } };
    expect(storableJson(clean)).toBe(clean);
    const dirty = { keep: { a: 'ok' }, bad: ['x', 'caf\ud800'] };
    const out = storableJson(dirty);
    expect(out).not.toBe(dirty);
    expect(out).toEqual({ keep: { a: 'ok' }, bad: ['x', 'caf\ufffd'] });
    expect(dirty.bad[1]).toBe('caf\ud800');
  });
});
