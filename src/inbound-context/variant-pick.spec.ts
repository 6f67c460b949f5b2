import { callerKey, pickVariant, variantBucket } from './variant-pick';

const split = (...weights: number[]) =>
  weights.map((weight, i) => ({ assistant_version: i + 1, weight }));

describe('variant pick', () => {
  it('walks the cumulative weights: 70/30 gives buckets 0-69 to the first, 70-99 to the second', () => {
    const variants = split(70, 30);
    expect([0, 69, 70, 99].map((bucket) => pickVariant(variants, bucket))).toEqual([0, 0, 1, 1]);
  });

  it('never picks a zero weight', () => {
    const variants = split(0, 100, 0);
    for (let bucket = 0; bucket < 100; bucket += 1) expect(pickVariant(variants, bucket)).toBe(1);
  });

  it('a weight change moves only the buckets that crossed the boundary', () => {
    const before = split(90, 10);
    const after = split(70, 30);
    const moved = Array.from({ length: 100 }, (_, b) => b).filter(
      (b) => pickVariant(before, b) !== pickVariant(after, b),
    );
    expect(moved).toEqual(Array.from({ length: 20 }, (_, i) => 70 + i));
  });

  it('buckets are stable, 0-99, and spread evenly over callers', () => {
    const counts = new Array<number>(100).fill(0);
    let unstable = 0;
    for (let i = 0; i < 10_000; i += 1) {
      const bucket = variantBucket('mapping-1', callerKey(`+1555${i}`, 'room'));
      if (bucket !== variantBucket('mapping-1', callerKey(`+1555${i}`, 'other room'))) unstable++;
      counts[bucket] += 1;
    }
    expect(unstable).toBe(0);
    expect(Math.min(...counts)).toBeGreaterThan(50);
    expect(Math.max(...counts)).toBeLessThan(150);
  });

  it('the caller is their digits; the room stands in when there is no caller', () => {
    expect(callerKey('+91 80 1234', 'r')).toBe(callerKey('918 01234', 'other'));
    expect(callerKey(undefined, 'room-7')).toBe('room:room-7');
    expect(callerKey('anonymous', 'room-7')).toBe('room:room-7');
    expect(variantBucket('m-1', 'caller:1')).not.toBe(undefined);
  });

  it('200 consecutive numbers land within ±5 points of every split, whatever the mapping', () => {
    for (const mapping of ['m-1', 'm-2', 'f3b1c2d4-0000-4000-8000-000000000000']) {
      const buckets = Array.from({ length: 200 }, (_, i) =>
        variantBucket(mapping, callerKey(`+91 98450 ${String(10000 + i)}`, 'r')),
      );
      for (const share of [10, 30, 50]) {
        const inSecond = buckets.filter((b) => pickVariant(split(100 - share, share), b) === 1);
        expect(Math.abs(inSecond.length / 2 - share)).toBeLessThanOrEqual(5);
      }
    }
  });
});
