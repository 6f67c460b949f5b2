import { parseTrustProxy } from './trust-proxy';

describe(parseTrustProxy.name, () => {
  it('reads on, off and a hop count', () => {
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('1')).toBe(1);
    expect(parseTrustProxy(' 2 ')).toBe(2);
    expect(parseTrustProxy('0')).toBe(false);
  });

  it('reads a list of addresses, CIDRs and subnet names', () => {
    expect(parseTrustProxy('10.0.0.0/8, 192.168.1.7,::1, fd00::/8,loopback,uniquelocal')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
      'uniquelocal',
    ]);
  });

  it.each([
    ['yes', '"yes"'],
    ['10.0.0.0/33', '"10.0.0.0/33"'],
    ['::1/129', '"::1/129"'],
    ['10.0.0.1,', '""'],
    ['lb.internal', '"lb.internal"'],
    ['10.0.0.0/8/1', '"10.0.0.0/8/1"'],
    ['300.1.1.1', '"300.1.1.1"'],
  ])('refuses %s, naming the bad entry', (raw, named) => {
    expect(() => parseTrustProxy(raw)).toThrow(named);
  });

  it('refuses an absurd hop count', () => {
    expect(() => parseTrustProxy('1000')).toThrow('at most 100');
  });
});
