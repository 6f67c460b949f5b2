import { performance } from 'node:perf_hooks';
import { Injectable, Logger, Optional } from '@nestjs/common';
import { AttemptLedger } from '../activity-log/attempt-ledger';
import { jobDigest } from '../activity-log/attempt-journal';
import { loggableError } from '../common/errors/loggable-error';
import { capJson } from '../common/secrets/redaction';
import { sleep } from '../common/time/with-timeout';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { MetricsService } from '../metrics/metrics.service';
import { CallCancellation } from './call-cancellation';
import type { Cancelled } from './call-cancels';
import { CallClaims, type ClaimAnswer, type FirstCall } from './call-claims';
import { executionEntry, type ExecutionContext } from './tool-call-context';
import { toolFailure, type ToolCallOutcome } from './tool-result';
import type { ToolFields } from './tool.types';

/** What the job that sends reports back: its result, its entry and the HTTP status answered. */
export interface SentCall {
  outcome: ToolCallOutcome;
  logId: string | null;
  statusCode: number | null;
}

/** Told to the job that sends an `irreversible` call: whether an earlier first's outcome is unknown. */
export interface FlightNote {
  firstUnknown: boolean;
}

/**
 * A claim lives this long past the tool's timeout: the time to write the first's entry. A claim
 * older than that belongs to a worker that stopped, and its outcome is unknown.
 */
export const CLAIM_LEASE_MARGIN_MS = 15_000;
/** How often a duplicate looks again while the first is in flight: from 20 ms, at most 250 ms. */
const FIRST_POLL_MS = 20;
const MAX_POLL_MS = 250;
/** A waiting duplicate keeps this much of its job's time for its own request, should it send. */
const JOB_MARGIN_MS = 5_000;

type Turn =
  | { kind: 'send'; note: FlightNote; claimed: boolean }
  | { kind: 'answered'; first: FirstCall }
  | { kind: 'in_flight' }
  | { kind: 'cancelled'; cancelled: Cancelled };

/**
 * Single flight for `irreversible` tools: per identity (see `callIdentity`) the first job sends;
 * a job with the same identity waits while the first is in flight and never sends, then gets the
 * first's result when it succeeded (and any later job within `dedupe_window_seconds`), or sends
 * itself when the first failed. The first holds a claim (`CallClaims`: one round trip) for its
 * timeout plus `CLAIM_LEASE_MARGIN_MS`; once that lease is over without an answer (its worker
 * stopped) the first's outcome is unknown, and the next job sends with an entry that says so.
 * A duplicate cancelled while it waits answers `cancelled`, not the first's result.
 */
@Injectable()
export class SingleFlight {
  private readonly logger = new Logger(SingleFlight.name);

  constructor(
    private readonly claims: CallClaims,
    private readonly attempts: AttemptLedger,
    private readonly cancellation: CallCancellation,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  async run(
    ctx: ExecutionContext,
    tool: ToolFields,
    args: Record<string, unknown>,
    identity: string,
    timeoutMs: number,
    send: (note: FlightNote) => Promise<SentCall>,
  ): Promise<ToolCallOutcome> {
    const started = performance.now();
    const token = jobDigest(ctx.job);
    const jobTimeoutMs = QUEUE_SETTINGS[QUEUES.TOOL_CALL].options.timeout;
    const budgetMs = Math.max(0, jobTimeoutMs - timeoutMs - JOB_MARGIN_MS);
    const lease = { token, leaseMs: timeoutMs + CLAIM_LEASE_MARGIN_MS, budgetMs };
    const turn = await this.enter(ctx, identity, lease);
    const waited = Math.round(performance.now() - started);
    if (turn.kind === 'cancelled')
      return this.cancellation.answer(ctx, args, turn.cancelled, waited);
    if (turn.kind !== 'send')
      this.metrics?.countToolCallDeduplicated(turn.kind === 'answered' ? 'answered' : 'in_flight');
    if (turn.kind === 'answered') return this.answer(ctx, tool, args, turn.first, waited);
    if (turn.kind === 'in_flight') return this.giveUp(ctx, tool, args, waited);
    const sent = await send(turn.note);
    if (turn.claimed) {
      const keepMs = tool.dedupe_window_seconds * 1000 - (performance.now() - started);
      this.settle(identity, token, sent, keepMs);
    }
    return sent.outcome;
  }

  /**
   * Claims the identity, or waits while another job holds it. Once it has waited, each look also
   * reads the job's cancel record (in the same write: the connection pipelines): a cancel ends
   * the wait, unless the look claimed (then the send's own cancel check answers it).
   */
  private async enter(
    ctx: ExecutionContext,
    identity: string,
    { token, leaseMs, budgetMs }: { token: string; leaseMs: number; budgetMs: number },
  ): Promise<Turn> {
    const deadline = performance.now() + budgetMs;
    let waited = false;
    let pause = FIRST_POLL_MS;
    for (;;) {
      let answer: ClaimAnswer;
      let cancelled: Cancelled | null;
      try {
        [answer, cancelled] = await Promise.all([
          this.claims.claim(identity, token, leaseMs),
          waited ? this.cancellation.check(ctx.data) : null,
        ]);
      } catch (error) {
        // Redis unreachable: its queue is too, so this job is one already taken; it sends.
        this.logger.warn(
          { err: loggableError(error) },
          'tool call claim failed; sending unchecked',
        );
        return { kind: 'send', note: { firstUnknown: false }, claimed: false };
      }
      if (answer.state === 'claimed') {
        // Seen in flight, then gone without a failure marker: its lease ended, nobody answered.
        const firstUnknown = waited && answer.previous === 'none';
        return { kind: 'send', note: { firstUnknown }, claimed: true };
      }
      if (cancelled) return { kind: 'cancelled', cancelled };
      if (answer.state === 'done') return { kind: 'answered', first: answer.first };
      const left = deadline - performance.now();
      if (left <= 0) return { kind: 'in_flight' };
      waited = true;
      await sleep(Math.min(pause, left));
      pause = Math.min(pause * 2, MAX_POLL_MS);
    }
  }

  /** Hands the claim over to the first's answer; a failure is not kept. Not waited for. */
  private settle(identity: string, token: string, sent: SentCall, keepMs: number): void {
    const { deduplicated: _d, first_log_id: _f, ...outcome } = sent.outcome;
    const first =
      sent.outcome.status === 'success'
        ? { outcome, log_id: sent.logId, status_code: sent.statusCode }
        : null;
    this.claims
      .settle(identity, token, first, Math.max(1, keepMs))
      .catch((error: unknown) =>
        this.logger.warn({ err: loggableError(error) }, 'tool call claim not settled'),
      );
  }

  /** A duplicate of a first that succeeded: its result, no request. */
  private async answer(
    ctx: ExecutionContext,
    tool: ToolFields,
    args: Record<string, unknown>,
    first: FirstCall,
    waited: number,
  ): Promise<ToolCallOutcome> {
    const message = `Tool "${tool.tool_name}" not called again: the result of an identical call${
      first.log_id ? ` (entry ${first.log_id})` : ''
    } was returned`;
    const response = {
      status_code: first.status_code,
      body: capJson(first.outcome.result),
      deduplicated: true,
      first_log_id: first.log_id,
    };
    await this.attempts.record(
      executionEntry(
        ctx,
        args,
        { status: 'success', message, latency_ms: waited, error_class: null },
        response,
      ),
      null,
    );
    return { ...first.outcome, latency_ms: waited, deduplicated: true, first_log_id: first.log_id };
  }

  /** The first is still in flight when this job must answer: not sent, and said so. */
  private async giveUp(
    ctx: ExecutionContext,
    tool: ToolFields,
    args: Record<string, unknown>,
    waited: number,
  ): Promise<ToolCallOutcome> {
    const error = `Tool "${tool.tool_name}" was not called: an identical call is still in flight.`;
    const response = { status_code: null, body: null, deduplicated: true, first_log_id: null };
    await this.attempts.record(
      executionEntry(
        ctx,
        args,
        { status: 'error', message: error, latency_ms: waited, error_class: 'timeout' },
        response,
      ),
      null,
    );
    return { ...toolFailure(error, waited, 'timeout'), deduplicated: true, first_log_id: null };
  }
}
