import { createHash } from 'node:crypto';
import type { OnModuleDestroy } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { sharedFailFastRedis, type SharedRedis } from '../common/redis/redis-connection';
import type { RedisTarget } from '../config/redis-target';
import { QUEUES } from '../contracts/queues';
import type { ToolCallCancelStatus } from '../contracts/tool-call-cancel.contract';
import { DEDUPE_WINDOW_SECONDS } from './tool.constants';
import { withToolCallScript, type ToolCallRedis } from './tool-call-script';

/** A tool call as a cancel names it. */
export interface CancellableCall {
  room_name: string;
  tool_call_id: string;
}

/** What a cancel after the send needs to tell the tool: set only for a tool with `notify_cancel`. */
export interface CancelNotice {
  user_id: string;
  assistant_id: string;
  tool_id: string;
  assistant_version: number | null;
  webhook_id: string;
}

/** A cancel as the call's job finds it: its reason. */
export interface Cancelled {
  reason: string | null;
}

/** What a cancel did: its answer, and the notice to send when the call was sent and asks for one. */
export interface CancelOutcome {
  status: ToolCallCancelStatus;
  notice: CancelNotice | null;
}

/** A cancel that comes before its call is remembered this long (the default dedupe window). */
export const CANCEL_MEMORY_MS = DEDUPE_WINDOW_SECONDS.default * 1000;

/*
 * One record per (room, tool_call_id), its first character its state: `p` started, `s` sent (then
 * the notice as JSON, or `null`), `c` cancelled before the send (then the reason as JSON), `x`
 * cancelled after the send (the notice dropped: told once).
 */
const recordOf = (state: 'p' | 's' | 'c', value?: unknown) =>
  state === 'p' ? 'p' : `${state}${JSON.stringify(value ?? null)}`;

function cancelledBy(raw: string | null): Cancelled | null {
  return raw !== null && raw[0] === 'c'
    ? { reason: JSON.parse(raw.slice(1)) as string | null }
    : null;
}

function outcomeOf(previous: string | null): CancelOutcome {
  if (previous === null) return { status: 'not_found', notice: null };
  if (previous[0] === 'p' || previous[0] === 'c')
    return { status: 'cancelled_before_send', notice: null };
  const notice =
    previous[0] === 's' ? (JSON.parse(previous.slice(1)) as CancelNotice | null) : null;
  return { status: 'cancelled_after_send', notice };
}

/**
 * Where tool calls with a `tool_call_id` and their cancels meet, atomically in every mode: a job
 * marks its call `started` and `sending` (either answers the cancel that came first), a cancel
 * marks it cancelled and learns how far it had gone.
 */
export abstract class CallCancels {
  abstract started(call: CancellableCall): Promise<Cancelled | null>;
  /** A cancel of the call, read only (a duplicate that waits for its first looks again). */
  abstract check(call: CancellableCall): Promise<Cancelled | null>;
  abstract sending(
    call: CancellableCall,
    notice: CancelNotice | null,
    keepMs: number,
  ): Promise<Cancelled | null>;
  abstract cancel(call: CancellableCall, reason: string | null): Promise<CancelOutcome>;
}

/** The record's key part: a digest, room names and ids being long. */
export function cancelDigest(call: CancellableCall): string {
  return createHash('sha256')
    .update(JSON.stringify([call.room_name, call.tool_call_id]))
    .digest('base64url');
}

/** Embedded mode: every job runs in this process. Bounded. */
export class LocalCallCancels extends CallCancels {
  private readonly records = new LRUCache<string, string>({ max: 100_000 });

  started(call: CancellableCall): Promise<Cancelled | null> {
    const key = cancelDigest(call);
    const raw = this.records.get(key) ?? null;
    if (raw === null) this.records.set(key, recordOf('p'), { ttl: CANCEL_MEMORY_MS });
    return Promise.resolve(cancelledBy(raw));
  }

  check(call: CancellableCall): Promise<Cancelled | null> {
    return Promise.resolve(cancelledBy(this.records.get(cancelDigest(call)) ?? null));
  }

  sending(
    call: CancellableCall,
    notice: CancelNotice | null,
    keepMs: number,
  ): Promise<Cancelled | null> {
    const key = cancelDigest(call);
    const cancelled = cancelledBy(this.records.get(key) ?? null);
    if (!cancelled) this.records.set(key, recordOf('s', notice), { ttl: keepMs });
    return Promise.resolve(cancelled);
  }

  cancel(call: CancellableCall, reason: string | null): Promise<CancelOutcome> {
    const key = cancelDigest(call);
    const raw = this.records.get(key) ?? null;
    if (raw === null || raw[0] === 'p')
      this.records.set(key, recordOf('c', reason), { ttl: CANCEL_MEMORY_MS });
    else if (raw[0] === 's')
      this.records.set(key, 'x', { ttl: this.records.getRemainingTTL(key) || CANCEL_MEMORY_MS });
    return Promise.resolve(outcomeOf(raw));
  }
}

/**
 * Shared by every worker: `<tool-call queue prefix>:tool-call:cancel:<digest>`, in the queue's slot
 * on a Redis Cluster. The job's commands leave in the write of the attempt journal's (the shared
 * auto-pipelined connection): no round trip of their own.
 */
export class RedisCallCancels extends CallCancels implements OnModuleDestroy {
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

  key(call: CancellableCall): string {
    return `${this.prefix}:${QUEUES.TOOL_CALL}:cancel:${cancelDigest(call)}`;
  }

  async started(call: CancellableCall): Promise<Cancelled | null> {
    const ttl = String(CANCEL_MEMORY_MS);
    return cancelledBy(await this.redis.toolCallStep(this.key(call), 'started', ttl));
  }

  async check(call: CancellableCall): Promise<Cancelled | null> {
    return cancelledBy(await this.redis.get(this.key(call)));
  }

  async sending(
    call: CancellableCall,
    notice: CancelNotice | null,
    keepMs: number,
  ): Promise<Cancelled | null> {
    const record = recordOf('s', notice);
    const ttl = String(Math.max(1, Math.round(keepMs)));
    return cancelledBy(await this.redis.toolCallStep(this.key(call), 'sending', record, ttl));
  }

  async cancel(call: CancellableCall, reason: string | null): Promise<CancelOutcome> {
    const record = recordOf('c', reason);
    const ttl = String(CANCEL_MEMORY_MS);
    const raw = await this.redis.toolCallStep(this.key(call), 'cancel', record, ttl);
    return outcomeOf(raw ?? null);
  }

  onModuleDestroy(): void {
    this.shared.release();
  }
}
