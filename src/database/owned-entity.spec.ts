import { nextUpdatedAt } from './owned-entity';

describe('nextUpdatedAt', () => {
  const at = (ms: number) => new Date(ms);

  it('is now when the clock has moved past the last write', () => {
    expect(nextUpdatedAt(at(1_000), at(2_000))).toEqual(at(2_000));
  });

  it('is 1 ms after the last write when the clock has not moved past it', () => {
    expect(nextUpdatedAt(at(2_000), at(2_000))).toEqual(at(2_001));
    expect(nextUpdatedAt(at(5_000), at(2_000))).toEqual(at(5_001));
  });

  it('reads the ISO text a details view holds', () => {
    expect(nextUpdatedAt('1970-01-01T00:00:02.000Z', at(2_000))).toEqual(at(2_001));
  });

  it('is now when there is no earlier write to follow', () => {
    expect(nextUpdatedAt(null, at(3_000))).toEqual(at(3_000));
    expect(nextUpdatedAt('not a date', at(3_000))).toEqual(at(3_000));
  });
});
