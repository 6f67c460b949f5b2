import { etagOf, ifMatchHolds, noneMatchHits, parseEntityTags } from './etag';

describe('etag', () => {
  const tag = etagOf({ a: 1 });

  it('is a strong, quoted tag that changes exactly with the body', () => {
    expect(tag).toMatch(/^"[\w-]{32}"$/);
    expect(etagOf({ a: 1 })).toBe(tag);
    expect(etagOf({ a: 2 })).not.toBe(tag);
  });

  it('reads lists of tags, weak tags and a lone *', () => {
    expect(parseEntityTags(`"x", W/"y"`)).toEqual(['"x"', 'W/"y"']);
    expect(parseEntityTags(' * ')).toEqual(['*']);
    expect(parseEntityTags(undefined)).toEqual([]);
    expect(parseEntityTags(['"a"', '"b"'])).toEqual(['"a"', '"b"']);
  });

  it('If-None-Match compares weakly, If-Match strongly', () => {
    expect(noneMatchHits(`"other", W/${tag}`, tag)).toBe(true);
    expect(noneMatchHits('*', tag)).toBe(true);
    expect(noneMatchHits('"other"', tag)).toBe(false);
    expect(ifMatchHolds(tag, tag)).toBe(true);
    expect(ifMatchHolds('*', tag)).toBe(true);
    expect(ifMatchHolds(`W/${tag}`, tag)).toBe(false);
    expect(ifMatchHolds('garbage', tag)).toBe(false);
  });

  it('takes * as "any" only when it is the whole header', () => {
    for (const header of ['x*y', '"other", *', '*, "other"', '**', ['*', '"other"']]) {
      expect(ifMatchHolds(header, tag)).toBe(false);
      expect(noneMatchHits(header, tag)).toBe(false);
    }
    expect(ifMatchHolds(`*, ${tag}`, tag)).toBe(true); // its own tag still matches
  });
});
