import { Gauge, type Registry } from 'prom-client';

/** What `GET /health/ready` judged: ready or not, and whether each dependency it checks is up. */
export interface ReadinessReport {
  ready: boolean;
  /** `database`, `redis`, `database_replica_<n>`: a bounded set fixed by configuration. */
  dependencies: Record<string, boolean>;
}

/** The longest a scrape waits for a fresh readiness check (the database ping alone allows 1.5 s). */
export const READINESS_TIMEOUT_MS = 2500;
/** A report younger than this is reused by a scrape rather than checked again. */
const FRESH_MS = 1000;

/**
 * `health_ready` (1 when `/health/ready` would answer 200) and `health_dependency_up{dependency}`.
 * Updated whenever the health routes compute readiness, and at scrape time when the last report is
 * older than a second, so a scrape is right even if nobody called `/health/ready`. A check that
 * fails or outlasts `READINESS_TIMEOUT_MS` makes `health_ready` 0 and keeps the dependencies'
 * last known state.
 */
export class ReadinessGauges {
  private source?: () => Promise<ReadinessReport>;
  private last?: { at: number; report: ReadinessReport };
  private refreshing?: Promise<void>;

  constructor(
    private readonly registry: Registry,
    private readonly timeoutMs = READINESS_TIMEOUT_MS,
  ) {}

  /**
   * Where a scrape gets a fresh report (set by the health module of this process). The gauges are
   * registered then: a process without health routes (the worker) exports none, rather than a
   * `health_ready 0` that would read as "not ready".
   */
  setSource(source: () => Promise<ReadinessReport>): void {
    if (!this.source) this.register();
    this.source = source;
  }

  /** The readiness just computed (by a health route or a scrape). */
  report(report: ReadinessReport): void {
    this.last = { at: Date.now(), report };
  }

  private register(): void {
    const registry = this.registry;
    const fresh = () => this.refresh();
    const current = () => this.last?.report;
    new Gauge({
      name: 'health_ready',
      help: 'Whether GET /health/ready answers 200 (1) or 503 (0), checked at scrape time',
      registers: [registry],
      async collect() {
        await fresh();
        const report = current();
        if (report) this.set(report.ready ? 1 : 0);
      },
    });
    new Gauge({
      name: 'health_dependency_up',
      help: 'Whether each dependency GET /health/ready checks answers (1) or not (0)',
      labelNames: ['dependency'] as const,
      registers: [registry],
      async collect() {
        await fresh();
        this.reset();
        for (const [dependency, up] of Object.entries(current()?.dependencies ?? {}))
          this.set({ dependency }, up ? 1 : 0);
      },
    });
  }

  /** One check per scrape, shared by both gauges; none while a recent report stands. */
  private refresh(): Promise<void> {
    const source = this.source;
    if (!source || (this.last && Date.now() - this.last.at < FRESH_MS)) return Promise.resolve();
    this.refreshing ??= this.check(source).finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async check(source: () => Promise<ReadinessReport>): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('readiness check timed out')), this.timeoutMs);
    });
    try {
      this.report(await Promise.race([source(), timeout]));
    } catch {
      this.report({ ready: false, dependencies: this.last?.report.dependencies ?? {} });
    } finally {
      clearTimeout(timer);
    }
  }
}
