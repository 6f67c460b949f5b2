import { jsonDepth } from './json-depth';

describe(jsonDepth.name, () => {
  it.each([
    [1, 0],
    ['text', 0],
    [null, 0],
    [{}, 1],
    [[], 1],
    [[1, 'a'], 1],
    [{ a: [] }, 2],
    [{ a: 1, b: { c: [{}] } }, 4],
  ])('%j nests %i levels', (value, depth) => {
    expect(jsonDepth(value)).toBe(depth);
  });

  it('stops counting just past the limit, and survives very deep values', () => {
    let value: unknown = 1;
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(jsonDepth(value, 20)).toBe(21);
    expect(jsonDepth(value)).toBe(100_000);
  });
});
