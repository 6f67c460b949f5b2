import { Injectable } from '@nestjs/common';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { ERROR_CLASSES, type ErrorClass } from '../contracts/error-class';
import { ReadinessGauges } from './readiness-gauges';

export type JobOutcome = 'completed' | 'failed';

/** Counts of one queue's jobs, as Bull reports them. */
export interface QueueCounts {
  waiting: number;
  active: number;
  delayed: number;
  failed: number;
}

export const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed'] as const;

/** The `error_class` label of a successful webhook call. */
export const NO_ERROR_CLASS = 'none';
/** Failures decided before anything is sent: they have no request to time. */
const NOT_SENT: ReadonlySet<string> = new Set<ErrorClass>(['config', 'blocked', 'cancelled']);
const KNOWN_CLASSES: ReadonlySet<string> = new Set(ERROR_CLASSES);

/** One outbound webhook call as the activity log records it. */
export interface WebhookOutcome {
  /** The activity log type (`inbound_context_lookup`, `tool_call`, `end_call_webhook`). */
  kind: string;
  outcome: 'success' | 'error';
  /** Why it failed (error-class.ts); ignored on success. */
  errorClass?: ErrorClass | null;
  latencyMs: number;
}

/**
 * This process's Prometheus registry (one per process, not prom-client's global one, so several
 * apps in one test process do not clash). Every series the service exposes is declared here.
 */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** One child per label set, found by a string key: the HTTP path pays one Map lookup. */
  private readonly httpChildren = new Map<string, { observe(value: number): void }>();
  private readonly jobDuration = new Histogram({
    name: 'queue_job_duration_seconds',
    help: 'Duration of a job attempt by queue and outcome',
    labelNames: ['queue', 'outcome'] as const,
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [this.registry],
  });
  private readonly webhooks = new Counter({
    name: 'webhook_requests_total',
    help: 'Outbound webhook calls by kind (activity log type), outcome and error class (none on success)',
    labelNames: ['kind', 'outcome', 'error_class'] as const,
    registers: [this.registry],
  });
  private readonly webhookDuration = new Histogram({
    name: 'webhook_request_duration_seconds',
    help: 'Outbound webhook call duration by kind (activity log type), for calls that were sent',
    labelNames: ['kind'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  /** `health_ready` and `health_dependency_up`, as `GET /health/ready` judges them. */
  readonly readiness = new ReadinessGauges(this.registry);
  private readonly logWriteFailures = new Counter({
    name: 'activity_log_write_failures_total',
    help: 'Activity log entries that could not be written',
    registers: [this.registry],
  });
  private readonly policyDecisions = new Counter({
    name: 'inbound_policy_decisions_total',
    help: "Lookups of numbers with an inbound policy by the policy's outcome (open, closed, denied, overflow)",
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly unhandledRejections = new Counter({
    name: 'process_unhandled_rejections_total',
    help: 'Promise rejections no code handled (each also logged as one line); a bug to fix',
    registers: [this.registry],
  });
  private readonly toolCallsDeduplicated = new Counter({
    name: 'tool_calls_deduplicated_total',
    help: 'Tool calls of irreversible tools not sent because an identical call was: answered with its result, or still in flight when the job had to answer',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  private readonly toolCallsCancelled = new Counter({
    name: 'tool_calls_cancelled_total',
    help: 'Tool calls withdrawn by tool-call-cancel jobs, by stage: before_send (not sent), after_send (sent; a tool with notify_cancel told), not_found (remembered for a job to come)',
    labelNames: ['stage'] as const,
    registers: [this.registry],
  });
  private queueCounts?: () => Promise<Record<string, QueueCounts>>;
  private countsRead?: { at: number; counts: Promise<Record<string, QueueCounts>> };

  constructor() {
    collectDefaultMetrics({ register: this.registry });
    // Kept entries are `maintenance` jobs waiting or delayed (beside one delayed job per periodic task).
    const pending = async () => {
      const maintenance = (await this.currentQueueCounts()).maintenance;
      return maintenance ? maintenance.waiting + maintenance.delayed : null;
    };
    new Gauge({
      name: 'activity_log_pending_entries',
      help: 'Activity log entries the database could not take yet, waiting in the maintenance queue (with its periodic tasks), read at scrape time',
      registers: [this.registry],
      async collect() {
        const n = await pending();
        if (n !== null) this.set(n);
      },
    });
    const read = () => this.currentQueueCounts();
    for (const state of QUEUE_STATES) {
      new Gauge({
        name: `queue_${state}_jobs`,
        help: `Jobs ${state} per queue, read at scrape time`,
        labelNames: ['queue'] as const,
        registers: [this.registry],
        async collect() {
          this.reset();
          for (const [queue, byState] of Object.entries(await read()))
            this.set({ queue }, byState[state]);
        },
      });
    }
  }

  /** One read of the queues per scrape, shared by the four gauges. */
  private currentQueueCounts(): Promise<Record<string, QueueCounts>> {
    const now = Date.now();
    if (!this.countsRead || now - this.countsRead.at > 1000) {
      const read = this.queueCounts?.() ?? Promise.resolve({});
      this.countsRead = { at: now, counts: read.catch(() => ({})) };
    }
    return this.countsRead.counts;
  }

  /** Where the queue gauges read their counts (set by the queue module of this process). */
  setQueueCounts(source: () => Promise<Record<string, QueueCounts>>): void {
    this.queueCounts = source;
  }

  observeHttp(method: string, route: string, status: number, seconds: number): void {
    const key = `${method} ${status} ${route}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.httpDuration.labels(method, route, String(status));
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  observeJob(queue: string, outcome: JobOutcome, seconds: number): void {
    this.jobDuration.labels(queue, outcome).observe(seconds);
  }

  /**
   * Counts one webhook call by kind, outcome and error class (`none` on success; a class outside
   * the vocabulary counts as `internal`, so the label stays bounded), and times it unless it was
   * refused before sending (`config`, `blocked`).
   */
  observeWebhook({ kind, outcome, errorClass, latencyMs }: WebhookOutcome): void {
    const cls =
      outcome === 'success'
        ? NO_ERROR_CLASS
        : errorClass && KNOWN_CLASSES.has(errorClass)
          ? errorClass
          : 'internal';
    this.webhooks.labels(kind, outcome, cls).inc();
    if (!NOT_SENT.has(cls))
      this.webhookDuration.labels(kind).observe(Math.max(0, latencyMs) / 1000);
  }

  countLogWriteFailure(): void {
    this.logWriteFailures.inc();
  }

  /** One lookup of a number with an inbound policy, by the policy's outcome. */
  countPolicyDecision(outcome: string): void {
    this.policyDecisions.inc({ outcome });
  }

  /** A duplicate of an irreversible tool call: `answered` with the first's result, or `in_flight`. */
  countToolCallDeduplicated(outcome: 'answered' | 'in_flight'): void {
    this.toolCallsDeduplicated.inc({ outcome });
  }

  /** A tool-call cancel, by how far the call had gone. */
  countToolCallCancelled(stage: 'before_send' | 'after_send' | 'not_found'): void {
    this.toolCallsCancelled.inc({ stage });
  }

  countUnhandledRejection(): void {
    this.unhandledRejections.inc();
  }

  metrics(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
