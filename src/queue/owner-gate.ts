import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { LRUCache } from 'lru-cache';
import { withTimeout } from '../common/time/with-timeout';
import type { AppConfig } from '../config/app-config';
import { QUEUE_SETTINGS, QUEUES, type QueueName } from '../contracts/queues';

/** One owner's jobs of one queue in this process: how many run, and who waits for a turn. */
interface Lane {
  active: number;
  waiting: (() => void)[];
}

/**
 * How long a job may run once its turn came: its queue's `timeout`. The worker runs jobs without
 * Bull's own timer (`enforceServiceOptions`), which would also count the wait for the turn.
 */
function runTimeoutOf(queue: QueueName): number | undefined {
  return (QUEUE_SETTINGS[queue].options as { timeout?: number }).timeout;
}

/**
 * One owner's lookups running at once: the lookup queue's whole concurrency. A call waits for each
 * lookup, and a lookup held back here would keep its Bull slot all the same: a lower cap frees no
 * slot for another owner, it only queues one tenant's calls behind each other.
 */
const LOOKUP_LIMIT = QUEUE_SETTINGS[QUEUES.INBOUND_CONTEXT_LOOKUP].concurrency;

/** How long a job's owner, once resolved, is taken as known (a number may change hands). */
const OWNER_TTL_MS = 60_000;
const OWNERS_KEPT = 50_000;

/**
 * Fairness between tenants inside one worker process: at most `OWNER_MAX_IN_FLIGHT` jobs of one
 * owner and one queue run at once (each waits on that owner's endpoints); the owner's further jobs
 * wait here, in order, for one of them to finish. Bull's concurrency is set well above the cap
 * (`QUEUE_SETTINGS`); each queue has its lanes of its own, so lookups never wait behind tool calls.
 * Lookups are not capped below their queue's concurrency (`LOOKUP_LIMIT`).
 */
@Injectable()
export class OwnerGate {
  private readonly limit: number;
  private readonly lanes = new Map<string, Lane>();
  private readonly owners = new LRUCache<string, string>({ max: OWNERS_KEPT, ttl: OWNER_TTL_MS });

  constructor(config: ConfigService<AppConfig, true>) {
    this.limit = config.get('queue.ownerMaxInFlight', { infer: true });
  }

  /** Runs `work` once fewer than the cap of `owner`'s jobs of `queue` run in this process. */
  async run<T>(queue: QueueName, owner: string, work: () => Promise<T>): Promise<T> {
    const key = `${queue}\u0000${owner}`;
    let lane = this.lanes.get(key);
    if (!lane) {
      lane = { active: 0, waiting: [] };
      this.lanes.set(key, lane);
    }
    const limit = queue === QUEUES.INBOUND_CONTEXT_LOOKUP ? LOOKUP_LIMIT : this.limit;
    if (lane.active < limit) lane.active += 1;
    else await new Promise<void>((resolve) => lane.waiting.push(resolve));
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      this.release(key, lane);
      throw error;
    }
    // The turn is held until the work really ends (its request may outlive the time bound).
    void running.then(
      () => this.release(key, lane),
      () => this.release(key, lane),
    );
    const timeoutMs = runTimeoutOf(queue);
    if (!timeoutMs) return running;
    return withTimeout(
      running,
      timeoutMs,
      () => new Error(`Promise timed out after ${timeoutMs} milliseconds`),
    );
  }

  /**
   * The owner of `what` (an assistant, a number), resolved once a minute at most per process;
   * `what` itself stands for the owner when it cannot be resolved.
   */
  async ownerOf(what: string, resolve: () => Promise<string | null | undefined>): Promise<string> {
    const known = this.owners.get(what);
    if (known) return known;
    let owner: string | null | undefined;
    try {
      owner = await resolve();
    } catch {
      return `unresolved:${what}`; // asked again next time
    }
    const resolved = owner ?? `unresolved:${what}`;
    this.owners.set(what, resolved);
    return resolved;
  }

  /** How many jobs of `owner` and `queue` run and wait now. */
  load(queue: QueueName, owner: string): { active: number; waiting: number } {
    const lane = this.lanes.get(`${queue}\u0000${owner}`);
    return { active: lane?.active ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /** A finished job's turn goes to the owner's next waiting job, if any. */
  private release(key: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next) return next();
    lane.active -= 1;
    if (lane.active === 0) this.lanes.delete(key);
  }
}
