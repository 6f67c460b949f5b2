import type { RoutingEntry } from './routing-entry';
import { MemoryRoutingStore, type RoutingBatch } from './routing-store';

/** A mapping's entry: active on `p` unless `p` is empty; `c` tells versions apart. */
const entry = (i: string, t: number, c: string, p = ''): RoutingEntry => ({
  t,
  i,
  u: 'u1',
  c,
  p,
  ...(p ? {} : { x: 1 as const }),
});
const only = (...entries: RoutingEntry[]): RoutingBatch => ({ entries, records: new Map() });
const record = (t: number, body = 'sealed') => JSON.stringify({ t, u: 'u1', c: body });
const serviceOf = async (store: MemoryRoutingStore, by: 'id' | 'number', key: string) => {
  const { entry: text } = await store.read(by, key);
  return text ? (JSON.parse(text) as RoutingEntry).c : null;
};

describe(MemoryRoutingStore.name, () => {
  it('is not built (a miss proves nothing) until a full rebuild has swept', async () => {
    const store = new MemoryRoutingStore();
    await store.write(only(entry('a', await store.ticket(), 'A', '1')));
    expect(await store.read('id', 'zzz')).toMatchObject({ entry: null, built: false });
    await store.sweep(1);
    expect(await store.read('id', 'zzz')).toMatchObject({ entry: null, built: true });
    expect(await serviceOf(store, 'number', '1')).toBe('A');
  });

  it('reads an entry with the shared records it names, each stored once', async () => {
    const store = new MemoryRoutingStore();
    const t = await store.ticket();
    const shared = new Map([
      ['o:u1', record(t, 'owner')],
      ['a:as1', record(t, 'assistant')],
      ['s:st1', record(t, 'strategy')],
      ['a:other', record(t, 'unrelated')],
    ]);
    const named = (i: string, p: string) => ({ ...entry(i, t, 'x', p), a: 'as1', s: 'st1' });
    await store.write({ entries: [named('m1', '1'), named('m2', '2')], records: shared });
    const read = await store.read('number', '2');
    expect(JSON.parse(read.entry!)).toMatchObject({ i: 'm2' });
    expect([...read.records.keys()]).toEqual(['o:u1', 'a:as1', 's:st1']);
  });

  it('moves the number with its mapping, and drops it when the mapping goes', async () => {
    const store = new MemoryRoutingStore();
    await store.write(only(entry('a', await store.ticket(), 'A', '1')));
    await store.write(only(entry('a', await store.ticket(), 'A', '2')));
    expect(await store.read('number', '1')).toMatchObject({ entry: null });
    expect(await serviceOf(store, 'number', '2')).toBe('A');
    await store.write(only({ ...entry('a', await store.ticket(), ''), d: 1 }));
    expect(await store.read('number', '2')).toMatchObject({ entry: null });
  });

  it('a write that read earlier never overwrites one that read later (entries and records)', async () => {
    const store = new MemoryRoutingStore();
    const slow = await store.ticket(); // a full rebuild starts reading...
    const later = await store.ticket(); // ...a change is written meanwhile
    await store.write({ entries: [entry('a', later, 'changed', '1')], records: new Map([['a:x', record(later, 'new')]]) });
    await store.write({ entries: [entry('a', slow, 'stale', '1')], records: new Map([['a:x', record(slow, 'old')]]) });
    expect(await serviceOf(store, 'id', 'a')).toBe('changed');
    await store.write(only({ ...entry('a', await store.ticket(), 'changed', '1'), a: 'x' }));
    const { records } = await store.read('id', 'a');
    expect(records.get('a:x')).toBe(record(later, 'new'));
  });

  it('a sweep removes what no read since the rebuild started wrote, and fields of another format', async () => {
    const store = new MemoryRoutingStore();
    const old = await store.ticket();
    await store.write({ entries: [entry('gone', old, 'G', '9')], records: new Map([['a:gone', record(old)]]) });
    const start = await store.ticket();
    await store.write({ entries: [entry('kept', start, 'K', '8')], records: new Map([['a:kept', record(start)]]) });
    await store.sweep(start);
    expect(await store.read('id', 'gone')).toMatchObject({ entry: null, built: true });
    expect(await store.read('number', '9')).toMatchObject({ entry: null });
    expect(await serviceOf(store, 'number', '8')).toBe('K');
  });
});
