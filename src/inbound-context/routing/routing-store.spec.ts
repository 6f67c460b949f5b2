import { MemoryRoutingStore, type UserRoutings } from './routing-store';

const users = (entries: Record<string, Record<string, string>>): UserRoutings =>
  new Map(Object.entries(entries).map(([id, fields]) => [id, new Map(Object.entries(fields))]));

describe(MemoryRoutingStore.name, () => {
  it('is not built (a miss proves nothing) until a full rebuild', async () => {
    const store = new MemoryRoutingStore();
    await store.replaceUsers(users({ u1: { 'r1:id:a': 'A' } }));
    expect(await store.read('r1:id:a')).toEqual({ value: 'A', built: false });
    await store.replaceAll(users({ u1: { 'r1:id:a': 'A' } }));
    expect(await store.read('r1:id:zzz')).toEqual({ value: null, built: true });
  });

  it("an owner's rebuild drops its mappings that are gone and leaves other owners alone", async () => {
    const store = new MemoryRoutingStore();
    await store.replaceAll(
      users({ u1: { 'r1:id:a': 'A', 'r1:number:1': 'A' }, u2: { 'r1:id:b': 'B' } }),
    );
    await store.replaceUsers(users({ u1: { 'r1:id:a': 'A2' } }));
    expect((await store.read('r1:id:a')).value).toBe('A2');
    expect((await store.read('r1:number:1')).value).toBeNull();
    expect((await store.read('r1:id:b')).value).toBe('B');
    await store.replaceUsers(users({ u1: {} }));
    expect((await store.read('r1:id:a')).value).toBeNull();
  });

  it('a full rebuild removes what no owner has any more', async () => {
    const store = new MemoryRoutingStore();
    await store.replaceAll(users({ u1: { 'r1:id:a': 'A' }, u2: { 'r1:id:b': 'B' } }));
    await store.replaceAll(users({ u2: { 'r1:id:b': 'B' } }));
    expect(await store.read('r1:id:a')).toEqual({ value: null, built: true });
    expect((await store.read('r1:id:b')).value).toBe('B');
  });
});
