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

/** Numbers the attempt and keeps its entry in one step: `HINCRBY` then `HSET` of that number. */
const BEGIN_SCRIPT = `local n = redis.call('HINCRBY', KEYS[1], 'count', 1)
redis.call('HSET', KEYS[1], tostring(n), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return n`;

/** Drops a settled attempt; once none is open, only the counter is left, for `SETTLED_TTL_MS`. */
const SETTLE_SCRIPT = `redis.call('HDEL', KEYS[1], ARGV[1])
if redis.call('HLEN', KEYS[1]) <= 1 then redis.call('PEXPIRE', KEYS[1], ARGV[2]) end
return 1`;

type JournalRedis = RedisConnection & {
  attemptBegin(key: string, entry: string, ttlMs: string): Promise<unknown>;
  attemptSettle(key: string, attempt: string, ttlMs: string): Promise<unknown>;
};

/**
 * Shared by every worker on Redis: one hash per job, `<queue prefix>:<queue>:<job id>:attempts:
 * <job timestamp>`, beside Bull's own keys of the job. Under the queue's key prefix, which on a
 * Redis Cluster is the queue's hash tag, so the journal lives in the queue's slot. Field `count`
 * numbers the attempts; field `<n>` holds attempt n's entry until it is settled. The scripts go
 * as EVALSHA (ioredis `defineCommand`, which loads them again after a Redis restart), not their
 * whole text with every job.
 */
export class RedisAttemptJournal extends AttemptJournal implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly redis: JournalRedis;

  constructor(
    target: RedisTarget,
    private readonly prefixes: Record<QueueName, string>,
    private readonly ttlMs = JOURNAL_TTL_MS,
    private readonly settledTtlMs = SETTLED_TTL_MS,
  ) {
    super();
    this.shared = sharedFailFastRedis(target);
    const redis = this.shared.connection;
    redis.defineCommand('attemptBegin', { numberOfKeys: 1, lua: BEGIN_SCRIPT });
    redis.defineCommand('attemptSettle', { numberOfKeys: 1, lua: SETTLE_SCRIPT });
    this.redis = redis as JournalRedis;
  }

  key(job: JournalJob): string {
    return `${this.prefixes[job.queue]}:${job.queue}:${String(job.id)}:attempts:${job.timestamp}`;
  }

  async begin(job: JournalJob, entry: ActivityLogInput): Promise<number> {
    const n = await this.redis.attemptBegin(
      this.key(job),
      JSON.stringify(entry),
      String(this.ttlMs),
    );
    return Number(n);
  }

  async settle(job: JournalJob, attempt: number): Promise<void> {
    await this.redis.attemptSettle(this.key(job), String(attempt), String(this.settledTtlMs));
  }

  async pending(job: JournalJob): Promise<JournaledAttempt[]> {
    const fields = await this.redis.hgetall(this.key(job));
    return Object.entries(fields)
      .filter(([field]) => field !== 'count')
      .map(([field, json]) => ({ attempt: Number(field), entry: reviveEntry(json) }))
      .sort((a, b) => a.attempt - b.attempt);
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
