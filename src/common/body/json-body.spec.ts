import { reservedKeyPaths } from './json-body';

describe(reservedKeyPaths.name, () => {
  it('finds Object.prototype member names at any depth, with their paths', () => {
    const body = JSON.parse(
      '{"a":{"__proto__":{"x":1}},"list":[{"constructor":1}],"toString":"x","fine":{"name":"y"}}',
    ) as object;
    expect(reservedKeyPaths(body).sort()).toEqual([
      'a.__proto__',
      'list[0].constructor',
      'toString',
    ]);
  });

  it('accepts ordinary bodies', () => {
    expect(reservedKeyPaths({ assistant_name: 'x', nested: [{ key: 'v' }] })).toEqual([]);
  });
});
