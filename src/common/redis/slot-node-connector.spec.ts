import { slotMaster } from './slot-node-connector';

describe(slotMaster.name, () => {
  const asked = { host: '10.0.0.9', port: 7000 };
  const ranges = [
    [0, 5460, ['10.0.0.1', 7001, 'id-1'], ['10.0.0.4', 7004, 'id-4']],
    [5461, 10922, ['', 7002, 'id-2']],
    [10923, 16383, ['10.0.0.3', 7003, 'id-3']],
  ] as Parameters<typeof slotMaster>[0];

  it('gives the master of the range holding the slot, not a replica', () => {
    expect(slotMaster(ranges, 0, asked)).toEqual({ host: '10.0.0.1', port: 7001 });
    expect(slotMaster(ranges, 5460, asked)).toEqual({ host: '10.0.0.1', port: 7001 });
    expect(slotMaster(ranges, 16383, asked)).toEqual({ host: '10.0.0.3', port: 7003 });
  });

  it('reads an empty host as the host that was asked', () => {
    expect(slotMaster(ranges, 6000, asked)).toEqual({ host: '10.0.0.9', port: 7002 });
  });

  it('gives null for a slot no range serves', () => {
    expect(slotMaster([[0, 100, ['10.0.0.1', 7001, 'id-1']]], 101, asked)).toBeNull();
  });
});
