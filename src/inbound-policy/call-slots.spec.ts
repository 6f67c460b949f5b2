import { MemoryCallSlots } from './call-slots';

// The Redis store is run by the e2e suite (test/e2e/inbound-context/inbound-policy-caps), on Redis.
describe(MemoryCallSlots.name, () => {
  let slots: MemoryCallSlots;
  beforeEach(() => {
    slots = new MemoryCallSlots();
  });

  const at = (roomName: string, now: number, inboundId = 'n1') =>
    slots.take({ inboundId, roomName, cap: 2, ttlSeconds: 60 }, now);

  it('counts one slot per room up to the cap, per number', async () => {
    expect(await at('r1', 1000)).toBe(true);
    // A room's second lookup keeps its slot and takes no other.
    expect(await at('r1', 1001)).toBe(true);
    expect(await at('r2', 1002)).toBe(true);
    expect(await at('r3', 1003)).toBe(false);
    expect(await at('r3', 1003, 'n2')).toBe(true);
  });

  it("frees a room's slot by the room alone, once", async () => {
    await at('r1', 1000);
    await at('r2', 1000);
    expect(await slots.free('r1')).toBe(true);
    expect(await slots.free('r1')).toBe(false);
    expect(await at('r3', 1001)).toBe(true);
  });

  it('frees a slot by room and number when the room has no record of it', async () => {
    await at('r1', 1000);
    await at('r2', 1000);
    expect(await slots.free('r9', 'n1')).toBe(false);
    expect(await slots.free('r2', 'n1')).toBe(true);
    expect(await at('r3', 1001)).toBe(true);
  });

  it("lets a slot's lease end: a call that never said it ended frees it after slot_ttl_seconds", async () => {
    await at('r1', 1000);
    await at('r2', 1000);
    expect(await at('r3', 1000 + 59_999)).toBe(false);
    expect(await at('r3', 1000 + 60_000)).toBe(true);
  });
});
