import { chunkRoutings, MemoryRoutingStore, type UserRoutings } from './routing-store';

const users = (entries: Record<string, Record<string, string>>): UserRoutings =>
  new Map(Object.entries(entries).map(([id, fields]) => [id, new Map(Object.entries(fields))]));

/** Rebuilds as the builder does: a ticket first, then the write. */
const rebuildUsers = async (
  store: MemoryRoutingStore,
  entries: Record<string, Record<string, string>>,
) => store.replaceUsers(users(entries), await store.ticket());
const rebuildAll = async (
  store: MemoryRoutingStore,
  entries: Record<string, Record<string, string>>,
) => store.replaceAll(users(entries), await store.ticket());

describe(MemoryRoutingStore.name, () => {
  it('is not built (a miss proves nothing) until a full rebuild', async () => {
    const store = new MemoryRoutingStore();
    await rebuildUsers(store, { u1: { 'r1:id:a': 'A' } });
    expect(await store.read('r1:id:a')).toEqual({ value: 'A', built: false });
    await rebuildAll(store, { u1: { 'r1:id:a': 'A' } });
    expect(await store.read('r1:id:zzz')).toEqual({ value: null, built: true });
  });

  it("an owner's rebuild drops its mappings that are gone and leaves other owners alone", async () => {
    const store = new MemoryRoutingStore();
    await rebuildAll(store, { u1: { 'r1:id:a': 'A', 'r1:number:1': 'A' }, u2: { 'r1:id:b': 'B' } });
    await rebuildUsers(store, { u1: { 'r1:id:a': 'A2' } });
    expect((await store.read('r1:id:a')).value).toBe('A2');
    expect((await store.read('r1:number:1')).value).toBeNull();
    expect((await store.read('r1:id:b')).value).toBe('B');
    await rebuildUsers(store, { u1: {} });
    expect((await store.read('r1:id:a')).value).toBeNull();
  });

  it('a full rebuild removes what no owner has any more', async () => {
    const store = new MemoryRoutingStore();
    await rebuildAll(store, { u1: { 'r1:id:a': 'A' }, u2: { 'r1:id:b': 'B' } });
    await rebuildAll(store, { u2: { 'r1:id:b': 'B' } });
    expect(await store.read('r1:id:a')).toEqual({ value: null, built: true });
    expect((await store.read('r1:id:b')).value).toBe('B');
  });

  it('a rebuild that started reading earlier never overwrites one that started later', async () => {
    const store = new MemoryRoutingStore();
    const slowFull = await store.ticket(); // a full rebuild starts reading...
    await rebuildUsers(store, { u1: { 'r1:id:a': 'changed' } }); // ...a change is rebuilt meanwhile
    await store.replaceAll(users({ u1: { 'r1:id:a': 'stale' }, u2: { 'r1:id:b': 'B' } }), slowFull);
    expect((await store.read('r1:id:a')).value).toBe('changed');
    expect(await store.read('r1:id:b')).toEqual({ value: 'B', built: true });
  });
});

describe(chunkRoutings.name, () => {
  it('cuts between whole owners at about the byte limit, and gives one empty chunk for none', () => {
    const routings = users({
      u1: { 'r1:id:a': 'x'.repeat(40) },
      u2: { 'r1:id:b': 'x'.repeat(40), 'r1:number:1': 'x'.repeat(40) },
      u3: { 'r1:id:c': 'x'.repeat(40) },
    });
    const ids = (chunks: ReturnType<typeof chunkRoutings>) =>
      chunks.map((chunk) => chunk.map(([id]) => id));
    expect(ids(chunkRoutings(routings, 60))).toEqual([['u1'], ['u2'], ['u3']]);
    expect(ids(chunkRoutings(routings, 160))).toEqual([['u1', 'u2'], ['u3']]);
    expect(ids(chunkRoutings(routings, 10_000))).toEqual([['u1', 'u2', 'u3']]);
    expect(ids(chunkRoutings(new Map(), 60))).toEqual([[]]);
  });
});
