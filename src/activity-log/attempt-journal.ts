import { createHash } from 'node:crypto';
import type { OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';
import type { QueueName } from '../contracts/queues';
import type { ActivityLogInput } from './activity-log.service';

/** The run of a queue job an attempt belongs to: the same on every redelivery of the job. */
export interface JournalJob {
  queue: QueueName;
  id: string | number;
  /** When the job was added (Unix ms): tells two jobs apart that reused one job id. */
  timestamp: number;
}

/** An attempt as the journal holds it until its own outcome is recorded. */
export interface JournaledAttempt {
  /** 1-based, per job, counted across redeliveries. */
  attempt: number;
  /** The entry to write when the attempt's outcome was lost: what was about to be sent. */
  entry: ActivityLogInput;
}

/**
 * How long a job's attempts are kept. A job is redelivered within the lock time once its worker
 * died, or when a worker next runs; the attempt counter must outlive that so a redelivered job
 * never numbers an attempt twice.
 */
export const JOURNAL_TTL_MS = 24 * 3600 * 1000;

/**
 * How long a job's journal is kept once none of its attempts is open. Every journaled queue runs a
 * job once (a retry is a job of its own), so only a stalled run is redelivered: within the lock
 * time while another worker runs. Kept for a day, the counters of a busy lookup queue would hold
 * millions of keys.
 */
export const SETTLED_TTL_MS = 15 * 60 * 1000;

/** The `attempt_key` of an entry: the job (hashed: its id may be long) and the attempt number. */
export function attemptKey(job: JournalJob, attempt: number): string {
  return `${jobDigest(job)}.${attempt}`;
}

/**
 * A digest of (queue, job id, job timestamp): 32 base64url characters. Also the seed of a
 * `webhook-id` that every redelivery of the job sends again.
 */
export function jobDigest(job: JournalJob): string {
  const seed = JSON.stringify([job.queue, String(job.id), job.timestamp]);
  return createHash('sha256').update(seed).digest('base64url').slice(0, 32);
}

/**
 * Attempts recorded before they are sent, so that a job redelivered after its worker died knows
 * which of its requests may have reached a receiver without an activity-log entry. `begin` keeps
 * the attempt (with the entry to write if its outcome is lost) and numbers it; `settle` drops it
 * once its own entry is written; `pending` lists the ones never settled.
 */
export abstract class AttemptJournal {
  abstract begin(job: JournalJob, entry: ActivityLogInput): Promise<number>;
  abstract settle(job: JournalJob, attempt: number): Promise<void>;
  abstract pending(job: JournalJob): Promise<JournaledAttempt[]>;
}

interface LocalJob {
  count: number;
  /** Attempt → its entry as JSON, as on Redis: a copy no later change reaches. */
  open: Map<number, string>;
}

/**
 * Embedded mode: jobs run in this process, so the journal is this process's memory (a job lost
 * with its process is lost with its journal). Bounded, oldest dropped first.
 */
export class LocalAttemptJournal extends AttemptJournal {
  private readonly jobs: LRUCache<string, LocalJob>;

  constructor(ttlMs = JOURNAL_TTL_MS, max = 100_000) {
    super();
    this.jobs = new LRUCache<string, LocalJob>({ max, ttl: ttlMs });
  }

  begin(job: JournalJob, entry: ActivityLogInput): Promise<number> {
    const key = jobDigest(job);
    const held = this.jobs.get(key) ?? { count: 0, open: new Map<number, string>() };
    held.count += 1;
    held.open.set(held.count, JSON.stringify(entry));
    this.jobs.set(key, held);
    return Promise.resolve(held.count);
  }

  settle(job: JournalJob, attempt: number): Promise<void> {
    this.jobs.get(jobDigest(job))?.open.delete(attempt);
    return Promise.resolve();
  }

  pending(job: JournalJob): Promise<JournaledAttempt[]> {
    const held = this.jobs.get(jobDigest(job));
    const open = held ? [...held.open] : [];
    return Promise.resolve(open.map(([attempt, json]) => ({ attempt, entry: reviveEntry(json) })));
  }
}

/** What a settled attempt's place in the list holds: never an entry, which is a JSON object. */
const SETTLED = '';

/**
 * Shared by every worker on Redis: one list per job, `<queue prefix>:<queue>:<job id>:attempts:
 * <job timestamp>`, beside Bull's own keys of the job. Under the queue's key prefix, which on a
 * Redis Cluster is the queue's hash tag, so the journal lives in the queue's slot. Attempt n is
 * the list's n-th item: `begin` appends its entry (RPUSH answers the new length, its number, so
 * numbering and keeping are one command), `settle` blanks it, keeping its place (the length goes
 * on counting). Each step's commands leave in one write (the connection auto-pipelines), one
 * round trip, no script; Redis runs them in order.
 *
 * Expiry: a day from each `begin`; `settle` shortens it to `SETTLED_TTL_MS` in the same write and
 * reads the list back (every item blank but an open attempt's). When one is still an entry (an
 * earlier run's attempt not settled yet), it gives the day back at once, in a second command: the
 * only window where an open attempt holds the short expiry is between those two commands. An empty
 * list is one that expired meanwhile: nothing was left to settle.
 */
export class RedisAttemptJournal extends AttemptJournal implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly redis: RedisConnection;

  constructor(
    target: RedisTarget,
    private readonly prefixes: Record<QueueName, string>,
    private readonly ttlMs = JOURNAL_TTL_MS,
    private readonly settledTtlMs = SETTLED_TTL_MS,
  ) {
    super();
    this.shared = sharedFailFastRedis(target);
    this.redis = this.shared.connection;
  }

  key(job: JournalJob): string {
    return `${this.prefixes[job.queue]}:${job.queue}:${String(job.id)}:attempts:${job.timestamp}`;
  }

  async begin(job: JournalJob, entry: ActivityLogInput): Promise<number> {
    const key = this.key(job);
    const [n] = await Promise.all([
      this.redis.rpush(key, JSON.stringify(entry)),
      this.redis.pexpire(key, this.ttlMs),
    ]);
    return n;
  }

  async settle(job: JournalJob, attempt: number): Promise<void> {
    const key = this.key(job);
    const [blanked, , items] = await Promise.all([
      this.redis.lset(key, attempt - 1, SETTLED).then(
        () => null,
        (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
      ),
      this.redis.pexpire(key, this.settledTtlMs),
      this.redis.lrange(key, 0, -1),
    ]);
    // LSET fails on a list that is gone (expired): decided by the list read, not by the error's text.
    if (blanked !== null && items.length > 0) throw blanked;
    if (items.some((item) => item !== SETTLED)) await this.redis.pexpire(key, this.ttlMs);
  }

  async pending(job: JournalJob): Promise<JournaledAttempt[]> {
    const items = await this.redis.lrange(this.key(job), 0, -1);
    return items.flatMap((json, index) =>
      json === SETTLED ? [] : [{ attempt: index + 1, entry: reviveEntry(json) }],
    );
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}

/** An entry read back from JSON: its timestamp a Date again. */
function reviveEntry(json: string): ActivityLogInput {
  const entry = JSON.parse(json) as ActivityLogInput & { timestamp?: string | Date };
  return { ...entry, timestamp: entry.timestamp ? new Date(entry.timestamp) : undefined };
}
