import type { OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { sharedFailFastRedis, type SharedRedis } from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';
import { QUEUES } from '../contracts/queues';
import type { ToolCallOutcome } from './tool-result';
import { withToolCallScript, type ToolCallRedis } from './tool-call-script';

/** The answer of the first call of an identity, kept for its duplicates within the window. */
export interface FirstCall {
  outcome: ToolCallOutcome;
  /** The first call's activity-log entry; null when it could not be written at once. */
  log_id: string | null;
  /** What its webhook answered (HTTP status). */
  status_code: number | null;
}

/**
 * One identity's claim, as every process sees it: `p` in flight (held by the job `t` until its
 * lease ends), `d` answered with success (kept for the window), `f` failed (not kept: a marker
 * that only tells a waiting duplicate that the first ended, so it may send).
 */
type Claim = { s: 'p'; t: string } | { s: 'd'; r: FirstCall } | { s: 'f' };

/**
 * What a job learns when it tries to claim an identity: it holds the claim now (`previous` says
 * what was there: nothing, a failed first, or its own claim from an earlier run), another job holds
 * it, or the first already succeeded.
 */
export type ClaimAnswer =
  | { state: 'claimed'; previous: 'none' | 'failed' | 'own' }
  | { state: 'in_flight' }
  | { state: 'done'; first: FirstCall };

/** How long a failed first's marker stays: far longer than a waiting duplicate looks again. */
export const FAILED_MARKER_MS = 60_000;

/**
 * The single-flight claims of `irreversible` tool calls. `claim` takes an identity when it is free
 * (or failed, or held by the same job before) for `leaseMs`, in one atomic step; `settle` replaces
 * the job's own claim with its answer (kept `keepMs`) or with the failed marker.
 */
export abstract class CallClaims {
  abstract claim(identity: string, token: string, leaseMs: number): Promise<ClaimAnswer>;
  abstract settle(
    identity: string,
    token: string,
    first: FirstCall | null,
    keepMs: number,
  ): Promise<void>;
}

function answerOf(raw: string | null, token: string): ClaimAnswer | null {
  if (raw === null) return null;
  const claim = JSON.parse(raw) as Claim;
  if (claim.s === 'd') return { state: 'done', first: claim.r };
  if (claim.s === 'p' && claim.t !== token) return { state: 'in_flight' };
  return null;
}

function previousOf(raw: string | null): 'none' | 'failed' | 'own' {
  if (raw === null) return 'none';
  return (JSON.parse(raw) as Claim).s === 'f' ? 'failed' : 'own';
}

const settledClaim = (first: FirstCall | null): string =>
  JSON.stringify(first ? { s: 'd', r: first } : { s: 'f' });

/** Embedded mode: every job runs in this process, so its memory holds the claims. Bounded. */
export class LocalCallClaims extends CallClaims {
  private readonly claims = new LRUCache<string, string>({ max: 100_000 });

  claim(identity: string, token: string, leaseMs: number): Promise<ClaimAnswer> {
    const raw = this.claims.get(identity) ?? null;
    const held = answerOf(raw, token);
    if (held) return Promise.resolve(held);
    this.claims.set(identity, JSON.stringify({ s: 'p', t: token }), { ttl: leaseMs });
    return Promise.resolve({ state: 'claimed', previous: previousOf(raw) });
  }

  settle(identity: string, token: string, first: FirstCall | null, keepMs: number): Promise<void> {
    const raw = this.claims.get(identity) ?? null;
    if (raw === null || answerOf(raw, token) === null)
      this.claims.set(identity, settledClaim(first), {
        ttl: first ? keepMs : Math.min(keepMs, FAILED_MARKER_MS),
      });
    return Promise.resolve();
  }
}

/**
 * Shared by every worker: one key per identity, `<tool-call queue prefix>:tool-call:claim:
 * <identity>`, under the queue's prefix (its hash tag on a Redis Cluster). A claim in flight
 * expires with its lease, so a worker that stopped holds nobody back for longer. Each step is
 * one round trip (EVALSHA of `TOOL_CALL_SCRIPT`).
 */
export class RedisCallClaims extends CallClaims implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly redis: ToolCallRedis;

  constructor(
    target: RedisTarget,
    private readonly prefix: string,
  ) {
    super();
    this.shared = sharedFailFastRedis(target);
    this.redis = withToolCallScript(this.shared.connection);
  }

  key(identity: string): string {
    return `${this.prefix}:${QUEUES.TOOL_CALL}:claim:${identity}`;
  }

  async claim(identity: string, token: string, leaseMs: number): Promise<ClaimAnswer> {
    const pending = JSON.stringify({ s: 'p', t: token });
    const [state, raw] = await this.redis.toolCallStep(
      this.key(identity),
      'claim',
      token,
      pending,
      String(Math.max(1, Math.round(leaseMs))),
    );
    if (state === 'held') return answerOf(raw, token) ?? { state: 'in_flight' };
    return { state: 'claimed', previous: previousOf(raw === '' ? null : raw) };
  }

  async settle(
    identity: string,
    token: string,
    first: FirstCall | null,
    keepMs: number,
  ): Promise<void> {
    const ttl = first ? keepMs : Math.min(keepMs, FAILED_MARKER_MS);
    await this.redis.toolCallStep(
      this.key(identity),
      'settle',
      token,
      settledClaim(first),
      String(Math.max(1, Math.round(ttl))),
    );
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}
