import { Logger, type OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { loggableError } from '../common/errors/loggable-error';
import {
  sharedFailFastRedis,
  type RedisConnection,
  type SharedRedis,
} from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';

/**
 * When a customer endpoint is unhealthy: more than half of its attempts failed over the last
 * `WINDOW_MINUTES` minutes (whole-minute buckets), with at least `MIN_ATTEMPTS` attempts. It is
 * healthy again once at most half failed.
 */
export const WINDOW_MINUTES = 5;
export const MIN_ATTEMPTS = 10;
/** How long an origin's counts and state are kept after its last attempt. */
const STATE_TTL_MS = 7 * 24 * 3600 * 1000;

export type EndpointState = 'healthy' | 'unhealthy';

/** The state an origin moves to, given its window's counts. */
export function nextState(current: EndpointState, attempts: number, errors: number): EndpointState {
  if (attempts >= MIN_ATTEMPTS && errors * 2 > attempts) return 'unhealthy';
  if (current === 'unhealthy' && errors * 2 <= attempts) return 'healthy';
  return current;
}

/** One attempt recorded: the window's counts, and the change of state it made, if it made one. */
export interface Observed {
  attempts: number;
  errors: number;
  /** Set only for the one attempt (in any process) that changed the state: its number, from 1. */
  change: { state: EndpointState; seq: number } | null;
}

/**
 * Per (owner, origin): attempts and failures per minute, and the state. `observe` records one
 * attempt and moves the state in one step, so of several processes only the one whose attempt
 * changed the state is told (it raises the event).
 */
export abstract class EndpointHealthStore {
  abstract observe(userId: string, origin: string, failed: boolean, now?: Date): Promise<Observed>;
}

const minuteOf = (now: Date) => Math.floor(now.getTime() / 60_000);

interface Tally {
  buckets: Map<number, { attempts: number; errors: number }>;
  state: EndpointState;
  seq: number;
}

/** One process (embedded mode). */
export class LocalEndpointHealth extends EndpointHealthStore {
  private readonly tallies = new LRUCache<string, Tally>({ max: 100_000, ttl: STATE_TTL_MS });

  observe(userId: string, origin: string, failed: boolean, now = new Date()): Promise<Observed> {
    const key = JSON.stringify([userId, origin]);
    const tally: Tally = this.tallies.get(key) ?? { buckets: new Map(), state: 'healthy', seq: 0 };
    this.tallies.set(key, tally);
    const minute = minuteOf(now);
    const bucket = tally.buckets.get(minute) ?? { attempts: 0, errors: 0 };
    bucket.attempts += 1;
    if (failed) bucket.errors += 1;
    tally.buckets.set(minute, bucket);
    let attempts = 0;
    let errors = 0;
    for (const [m, b] of tally.buckets) {
      if (m <= minute - WINDOW_MINUTES) tally.buckets.delete(m);
      else {
        attempts += b.attempts;
        errors += b.errors;
      }
    }
    const state = nextState(tally.state, attempts, errors);
    if (state === tally.state) return Promise.resolve({ attempts, errors, change: null });
    tally.state = state;
    tally.seq += 1;
    return Promise.resolve({ attempts, errors, change: { state, seq: tally.seq } });
  }
}

/**
 * Records the attempt in its minute's bucket, sums the window, drops buckets that left it, and
 * moves the state: all in one script on one key, so processes never disagree on a change.
 * Returns {state, seq (0: unchanged), attempts, errors}.
 */
const OBSERVE_SCRIPT = `
local minute = tonumber(ARGV[1])
local window = tonumber(ARGV[3])
redis.call('HINCRBY', KEYS[1], 'a:' .. minute, 1)
if ARGV[2] == '1' then redis.call('HINCRBY', KEYS[1], 'e:' .. minute, 1) end
local attempts, errors = 0, 0
for i = 0, window - 1 do
  attempts = attempts + tonumber(redis.call('HGET', KEYS[1], 'a:' .. (minute - i)) or '0')
  errors = errors + tonumber(redis.call('HGET', KEYS[1], 'e:' .. (minute - i)) or '0')
end
for i = window, window + 10 do
  redis.call('HDEL', KEYS[1], 'a:' .. (minute - i), 'e:' .. (minute - i))
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
local state = redis.call('HGET', KEYS[1], 'state') or 'healthy'
local nextState = state
if attempts >= tonumber(ARGV[4]) and errors * 2 > attempts then nextState = 'unhealthy'
elseif state == 'unhealthy' and errors * 2 <= attempts then nextState = 'healthy' end
if nextState == state then return {state, 0, attempts, errors} end
redis.call('HSET', KEYS[1], 'state', nextState)
return {nextState, redis.call('HINCRBY', KEYS[1], 'seq', 1), attempts, errors}
`;

type ObserveRedis = RedisConnection & {
  endpointHealthObserve(key: string, ...args: (string | number)[]): Promise<unknown>;
};

/** Shared by every process: `<QUEUE_PREFIX>:endpoint-health:{<owner>:<origin>}`, one hash. */
export class RedisEndpointHealth extends EndpointHealthStore implements OnModuleDestroy {
  private readonly logger = new Logger('EndpointHealth');
  private readonly shared: SharedRedis;
  private readonly redis: ObserveRedis;

  constructor(
    target: RedisTarget,
    private readonly prefix: string,
  ) {
    super();
    // Never waits on Redis: the entries' writer calls this.
    this.shared = sharedFailFastRedis(target);
    // Sent as EVALSHA; ioredis loads it again after a Redis restart.
    this.shared.connection.defineCommand('endpointHealthObserve', {
      numberOfKeys: 1,
      lua: OBSERVE_SCRIPT,
    });
    this.redis = this.shared.connection as ObserveRedis;
  }

  async observe(
    userId: string,
    origin: string,
    failed: boolean,
    now = new Date(),
  ): Promise<Observed> {
    try {
      const [state, seq, attempts, errors] = (await this.redis.endpointHealthObserve(
        `${this.prefix}:endpoint-health:{${userId}:${origin}}`,
        minuteOf(now),
        failed ? '1' : '0',
        WINDOW_MINUTES,
        MIN_ATTEMPTS,
        STATE_TTL_MS,
      )) as [EndpointState, number, number, number];
      return {
        attempts: Number(attempts),
        errors: Number(errors),
        change: Number(seq) > 0 ? { state, seq: Number(seq) } : null,
      };
    } catch (error) {
      this.logger.warn({ err: loggableError(error) }, 'endpoint health not recorded');
      return { attempts: 0, errors: 0, change: null };
    }
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}
