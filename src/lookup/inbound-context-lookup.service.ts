import { Injectable, Logger, Optional } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { MetricsService } from '../metrics/metrics.service';
import type { RoutedSecret } from '../secret/secret-reference-checks';
import type { UserEntity } from '../auth/user.entity';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { loggableError } from '../common/errors/loggable-error';
import type { AppConfig } from '../config/app-config';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../contracts/inbound-context-lookup.contract';
import { INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS } from '../contracts/queues';
import { RoomVersions } from '../call-version/room-versions';
import { ActivityLogService, type ActivityLogInput } from '../activity-log/activity-log.service';
import type { OpenAttempt } from '../activity-log/attempt-ledger';
import { CallSlots } from '../inbound-policy/call-slots';
import {
  decisionOf,
  evaluatePolicy,
  overflowOf,
  type PolicyEvaluation,
} from '../inbound-policy/evaluate-policy';
import { POLICY_LIMITS } from '../inbound-policy/policy.types';
import { LookupRepository, type ResolvedMapping } from '../inbound-context/lookup.repository';
import { NumberOverflow } from './number-overflow';
import { RoutingTable, signingSecretsNow } from './routing/routing-table';
import type { StrategyWebhookOutcome, StrategyWebhookSend } from './strategy-webhook';
import { StrategyWebhookClient } from './strategy-webhook.client';
import type { LookupAttempts } from './utils/lookup-attempts.util';
import { policyCallValues, policyLogEntry, policyResult } from './utils/lookup-policy.util';
import {
  mappingNotFoundResult,
  settlerOf,
  toLookupLogEntry,
  toLookupResult,
  withoutStrategyResult,
} from './utils/lookup-outcome.util';
import {
  decideLookup,
  routeLookup,
  toStrategyRequest,
  type LookupRoute,
  type StrategyRequest,
  type WebhookCallConfig,
} from './utils/lookup-plan.util';

/**
 * Runs one inbound context lookup: mapping → assistant → strategy → webhook → rendered prompt →
 * activity-log entry. Never throws for anything a customer or their data can cause: every outcome
 * is a result the call worker can start the call with. The call is waiting: the only awaits are
 * the routing table's read (one Redis read, no database, beside the job's journal read), the
 * journal's record of the request, the webhook (the room's version is written meanwhile) and the
 * log write (handed to the queue when the database cannot take it).
 */
@Injectable()
export class InboundContextLookupService {
  private readonly logger = new Logger(InboundContextLookupService.name);
  private readonly maxPromptBytes: number;

  constructor(
    private readonly lookups: LookupRepository,
    private readonly webhook: StrategyWebhookClient,
    private readonly activityLog: ActivityLogService,
    private readonly webhookSecrets: WebhookSecretsService,
    config: ConfigService<AppConfig, true>,
    private readonly rooms: RoomVersions,
    private readonly routing: RoutingTable,
    private readonly slots: CallSlots,
    private readonly overflow: NumberOverflow,
    @Optional() private readonly metrics?: MetricsService,
  ) {
    this.maxPromptBytes = config.get('limits.maxRenderedPromptBytes', { infer: true });
  }

  /**
   * `enqueuedAt` (when the job was added) bounds a job that carries no `deadline_at`: it may not
   * start its webhook call later than the job timeout after it was queued. `attempts` (the queue
   * job's, see `LookupAttempts`): the strategy request is journaled before it is sent and sent
   * with the job's own `webhook-id`; requests of an earlier run left without an entry are
   * recorded first (when the journal says there were earlier attempts), or, by a lookup that sends
   * nothing, before the job ends.
   */
  async run(
    data: InboundContextLookupJobData,
    how: { enqueuedAt?: number; attempts?: LookupAttempts } = {},
  ): Promise<InboundContextLookupResult> {
    const { attempts } = how;
    try {
      return await this.answer(data, how);
    } finally {
      // Reads the journal only when the run sent nothing (its `begin` did otherwise).
      if (attempts) await attempts.recoverLost(this.write);
    }
  }

  private async answer(
    data: InboundContextLookupJobData,
    { enqueuedAt = Date.now(), attempts }: { enqueuedAt?: number; attempts?: LookupAttempts },
  ): Promise<InboundContextLookupResult> {
    const deadline = data.deadline_at ?? enqueuedAt + INBOUND_CONTEXT_LOOKUP_JOB_OPTIONS.timeout;
    // 1. Resolve the routing (mapping, assistant: pin or split arm, strategy).
    const { found, secretsOf, secretValues } = await this.resolve(data);
    if (!found?.mapping) return { ...mappingNotFoundResult(data), policy: null };
    // The number's policy: a call it does not let through is answered without the strategy.
    const policy = await this.admit(found, data);
    if (policy) this.metrics?.countPolicyDecision(policy.outcome);
    if (policy && policy.outcome !== 'open') return this.answerByPolicy(found, data, policy);
    const withPolicy = (result: InboundContextLookupResult) => ({
      ...result,
      policy: policy && decisionOf(policy),
    });
    const route = routeLookup(found, data);
    if (policy) Object.assign(route.call, policyCallValues(policy));
    // The room's version is written while the webhook is called; in before the result is.
    const remembered =
      route.assistant &&
      this.rooms.remember(route.assistant.assistant_id, data.room_name, route.version);
    const { strategyId } = route;
    if (!strategyId) {
      await remembered;
      return withPolicy(withoutStrategyResult(route, this.maxPromptBytes));
    }
    const secrets = await secretsOf();
    // 2. Decide: call the webhook (within the time left) or fail without sending anything.
    const request = toStrategyRequest(data, route, strategyId);
    const decision = decideLookup(route, request, deadline, Date.now());
    // Rendering settles the outcome once: for the client span's error.type and for the entry.
    const settle = settlerOf(route, request.config.fallback_context, this.maxPromptBytes);
    // 3. Call the webhook, journaled first when the job has a journal.
    const { outcome, open } =
      'call' in decision
        ? await this.send(route, request, decision.call, {
            secrets,
            secretValues,
            attempts,
            settle: (judged) => settle(judged).outcome,
          })
        : { ...decision, open: null };
    // 4. Render: the result and the log entry both come from this one settled outcome.
    const fallback = request.config.fallback_context;
    const settled = settle(outcome);
    // 5. Log (with the attempt's key when it was journaled).
    const entry = toLookupLogEntry(route, request, settled);
    if (policy) entry.response_data.policy = decisionOf(policy);
    const sent = attempts && 'call' in decision;
    const [logId] = await Promise.all([
      sent ? attempts.record(entry, open, this.write) : this.write(entry),
      remembered,
    ]);
    // 6. Shape the result.
    return withPolicy(toLookupResult(route.base, settled, fallback, logId));
  }

  /**
   * What the number's policy says of this call (null: the number has none). An `open` call of a
   * number with a cap takes the room's slot; none free, the call overflows.
   */
  private async admit(
    found: ResolvedMapping,
    data: InboundContextLookupJobData,
  ): Promise<PolicyEvaluation | null> {
    const { mapping } = found;
    const { policy } = mapping;
    if (!policy) return null;
    const evaluation = evaluatePolicy(policy, { now: Date.now(), caller: data.caller_number });
    const cap = policy.max_concurrent_calls;
    if (evaluation.outcome !== 'open' || !cap) return evaluation;
    const taken = await this.slots.take({
      inboundId: mapping.inbound_id,
      roomName: data.room_name,
      cap,
      ttlSeconds: policy.slot_ttl_seconds ?? POLICY_LIMITS.defaultSlotTtl,
    });
    if (taken) return evaluation;
    this.overflow.report({
      user_id: mapping.user_id,
      inbound_id: mapping.inbound_id,
      phone_number: mapping.phone_number_normalized,
      room_name: data.room_name,
      max_concurrent_calls: cap,
    });
    return overflowOf(policy, evaluation);
  }

  /** A call the policy answers (closed, denied, full): its result and entry, the strategy not called. */
  private async answerByPolicy(
    found: ResolvedMapping,
    data: InboundContextLookupJobData,
    evaluation: PolicyEvaluation,
  ): Promise<InboundContextLookupResult> {
    const result = policyResult(found, data, evaluation, this.maxPromptBytes);
    // The call's later jobs run the version the policy's assistant rendered.
    const remembered =
      result.assistant_name !== null &&
      result.assistant_id &&
      this.rooms.remember(result.assistant_id, data.room_name, result.assistant_version);
    const [log_id] = await Promise.all([
      this.write(policyLogEntry(found, data, result)),
      remembered,
    ]);
    return { ...result, log_id };
  }

  /** The strategy request, journaled (`attempts`) before it is sent with the job's `webhook-id`. */
  private async send(
    route: LookupRoute,
    request: StrategyRequest,
    call: WebhookCallConfig,
    how: {
      secrets: string[];
      secretValues?: Record<string, RoutedSecret>;
      attempts?: LookupAttempts;
      settle: StrategyWebhookSend['settle'];
    },
  ): Promise<{ outcome: StrategyWebhookOutcome; open: OpenAttempt | null }> {
    const { secrets, secretValues, attempts, settle } = how;
    const open = (await attempts?.begin(route, request, this.write)) ?? null;
    const webhookId = attempts?.webhookId;
    const sent = await this.webhook.call(
      { ...request, settle },
      call,
      secrets,
      secretValues,
      webhookId,
    );
    return { outcome: sent.outcome, open };
  }

  /** An entry the database cannot take goes to the `maintenance` queue (written once it can). */
  private readonly write = (entry: ActivityLogInput) => this.activityLog.record(entry);

  /**
   * The job's routing from the routing table (no database read); from the database when the table
   * cannot answer (Redis down, or the table not built yet). With it, how to get the owner's signing secrets and (from the table)
   * the values of the secrets the strategy references.
   */
  private async resolve(data: InboundContextLookupJobData): Promise<{
    found: ResolvedMapping | null;
    secretsOf: () => Promise<string[]>;
    secretValues?: Record<string, RoutedSecret>;
  }> {
    const hit = await this.routing.find(data);
    const { routing } = hit ?? {};
    if (hit && !routing) return { found: null, secretsOf: () => Promise.resolve([]) };
    if (routing) {
      const now = signingSecretsNow(routing);
      const owner = routing.owner as UserEntity | null;
      const secretsOf = () =>
        now ? Promise.resolve(now) : owner ? this.signingSecrets(owner) : Promise.resolve([]);
      return { found: routing.found, secretsOf, secretValues: routing.secretValues };
    }
    const found = await this.lookups.resolve(data);
    const owner = found?.owner;
    return { found, secretsOf: () => (owner ? this.signingSecrets(owner) : Promise.resolve([])) };
  }

  /** The user's Standard Webhooks secrets; unsigned (and a warning) rather than no lookup if they cannot be read. */
  private signingSecrets(owner: UserEntity): Promise<string[]> {
    return this.webhookSecrets.signingSecretsOfUser(owner).catch((error: unknown) => {
      this.logger.warn(
        { err: loggableError(error), user_id: owner.user_id },
        'no signing secret; sending unsigned',
      );
      return [] as string[];
    });
  }
}
