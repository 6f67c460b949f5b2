import { ConfigService } from '@nestjs/config';
import type { ActivityLogInput, ActivityLogService } from '../../activity-log/activity-log.service';
import { MemoryEntrySpool, type HeldEntry } from './entry-spool';
import { HELD_COMMIT_DELAY_MS } from './held-commit-turns';
import { HELD_GRACE_MS, LookupLogWriter } from './lookup-log-writer';

/** A log that stores entries under their reserved ids, and can be made to refuse or be down. */
class FakeLog {
  readonly stored = new Map<string, ActivityLogInput>();
  next = 1;
  /** What `record` does with the next entries: store them, refuse them (null), or be down. */
  mode: 'up' | 'refuse' | 'down' = 'up';
  records = 0;

  reserveId(): Promise<string | null> {
    return Promise.resolve(this.mode === 'down' ? null : String(this.next++));
  }
  record(entry: ActivityLogInput): Promise<string | null> {
    this.records += 1;
    if (this.mode !== 'up') return Promise.resolve(null);
    const id = entry.log_id ?? String(this.next++);
    this.stored.set(id, entry);
    return Promise.resolve(id);
  }
  hasEntry(entry: ActivityLogInput): Promise<boolean> {
    if (this.mode === 'down') return Promise.reject(new Error('database down'));
    return Promise.resolve([...this.stored.values()].some((e) => e.room_name === entry.room_name));
  }
}

const entry = (room: string): ActivityLogInput =>
  ({ log_type: 'inbound_context_lookup', room_name: room, status: 'success' }) as ActivityLogInput;

/**
 * Resolves once the writer's commits in flight and their release are done: after the commit's
 * turn, and after the release it queues (`setImmediate`, queued before this one's).
 */
const settled = async () => {
  await new Promise((resolve) => setTimeout(resolve, HELD_COMMIT_DELAY_MS + 20));
  await new Promise((resolve) => setImmediate(resolve));
};

describe('LookupLogWriter, LOOKUP_LOG_WRITE=behind', () => {
  let log: FakeLog;
  let spool: MemoryEntrySpool;
  let writer: LookupLogWriter;

  beforeEach(() => {
    log = new FakeLog();
    spool = new MemoryEntrySpool();
    const config = new ConfigService({ logs: { lookupWrite: 'behind' } });
    writer = new LookupLogWriter(log as unknown as ActivityLogService, spool, config as never);
  });

  afterEach(() => writer.onModuleDestroy());

  const held = async (): Promise<HeldEntry[]> => (await spool.held()).items;

  it('answers with the reserved id, then commits the entry under it and lets go of it', async () => {
    const id = await writer.write(entry('a'));
    expect(id).toBe('1');
    // Answered before its commit: held until then.
    expect(await held()).toHaveLength(1);
    await settled();
    expect(log.stored.get('1')).toMatchObject({ room_name: 'a', log_id: '1' });
    expect(await spool.pending()).toBe(0);
  });

  it('commits after the answer, the entries held meanwhile together, and lets go of them with one release', async () => {
    const release = jest.spyOn(spool, 'release');
    await Promise.all(['a', 'b', 'c'].map((room) => writer.write(entry(room))));
    // Answered: no commit has started yet.
    expect(log.records).toBe(0);
    await settled();
    expect(log.records).toBe(3);
    expect(release).toHaveBeenCalledTimes(1);
    expect(release.mock.calls[0][0]).toHaveLength(3);
  });

  it('keeps an entry its process could not commit until a drain writes it under its id', async () => {
    log.mode = 'refuse';
    const id = await writer.write(entry('a'));
    await settled();
    expect(await held()).toHaveLength(1);
    log.mode = 'up';
    // Within the grace the entry is its process's: a drain leaves it.
    expect(await writer.drain()).toBe(0);
    expect(log.stored.size).toBe(0);
    expect(await writer.drain(0)).toBe(1);
    expect(log.stored.get(id!)).toMatchObject({ room_name: 'a' });
    expect(await spool.pending()).toBe(0);
  });

  it('writes entries a stopped process held once they are older than the grace', async () => {
    const now = Date.now();
    await spool.hold({
      id: 'x',
      attempts: 0,
      held_at: now - HELD_GRACE_MS - 1,
      entry: { ...entry('old'), log_id: '41', timestamp: new Date(now).toISOString() },
    });
    await spool.hold({
      id: 'y',
      attempts: 0,
      held_at: now,
      entry: { ...entry('young'), log_id: '42', timestamp: new Date(now).toISOString() },
    });
    expect(await writer.drain()).toBe(1);
    expect([...log.stored.keys()]).toEqual(['41']);
    expect((await held()).map((item) => item.id)).toEqual(['y']);
  });

  it('counts a refusal against a held entry only while the database answers', async () => {
    log.mode = 'refuse';
    await writer.write(entry('a'));
    await settled();
    log.mode = 'down';
    await writer.drain(0);
    await writer.drain(0);
    expect((await held())[0].attempts).toBe(0);
    log.mode = 'refuse';
    await writer.drain(0);
    expect((await held())[0].attempts).toBe(1);
  });

  it('writes the entry at once when Redis cannot hold it', async () => {
    jest.spyOn(spool, 'hold').mockRejectedValueOnce(new Error('Redis down'));
    const id = await writer.write(entry('a'));
    expect(log.stored.get(id!)).toMatchObject({ room_name: 'a' });
    expect(await spool.pending()).toBe(0);
  });

  it('waits for the commits in flight when it stops', async () => {
    await writer.write(entry('a'));
    await writer.onModuleDestroy();
    expect(log.stored.size).toBe(1);
    expect(await spool.pending()).toBe(0);
  });
});
