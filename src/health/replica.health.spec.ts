import { lagOf, replicaHost } from './replica.health';

describe(lagOf.name, () => {
  it('reads the lag in seconds, null while the SQL thread is stopped, nothing without a status row', () => {
    expect(lagOf({ Seconds_Behind_Master: 3 })).toBe(3);
    expect(lagOf({ Seconds_Behind_Master: null })).toBeNull();
    expect(lagOf({ Seconds_Behind_Source: '7' })).toBe(7);
    expect(lagOf({ Seconds_Behind_Source: null })).toBeNull();
    expect(lagOf(undefined)).toBeUndefined();
  });
});

describe(replicaHost.name, () => {
  it('names a replica by host and port, never its credentials', () => {
    expect(replicaHost('mysql://reader:secret@10.0.0.5:3307/app')).toBe('10.0.0.5:3307');
  });
});
