import type { ErrorClass } from '../contracts/error-class';
import { MetricsService } from './metrics.service';

/** The value of the sample line `name{labels}` (labels in declaration order). */
async function value(metrics: MetricsService, line: string): Promise<number | undefined> {
  const text = await metrics.metrics();
  const found = text.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(found.lastIndexOf(' ') + 1));
}

describe(`${MetricsService.name}.observeWebhook`, () => {
  let metrics: MetricsService;
  beforeEach(() => (metrics = new MetricsService()));

  it('counts calls by kind, outcome and error class, none on success', async () => {
    const kind = 'inbound_context_lookup';
    metrics.observeWebhook({ kind, outcome: 'success', latencyMs: 40 });
    metrics.observeWebhook({ kind, outcome: 'error', errorClass: 'http_5xx', latencyMs: 30 });
    metrics.observeWebhook({ kind, outcome: 'error', errorClass: 'http_5xx', latencyMs: 30 });
    const counter = (outcome: string, cls: string) =>
      value(
        metrics,
        `webhook_requests_total{kind="${kind}",outcome="${outcome}",error_class="${cls}"}`,
      );
    expect(await counter('success', 'none')).toBe(1);
    expect(await counter('error', 'http_5xx')).toBe(2);
  });

  it('keeps error_class bounded: a missing or unknown class counts as internal', async () => {
    metrics.observeWebhook({ kind: 'tool_call', outcome: 'error', latencyMs: 1 });
    metrics.observeWebhook({
      kind: 'tool_call',
      outcome: 'error',
      errorClass: 'https://customer.example/secret' as ErrorClass,
      latencyMs: 1,
    });
    expect(
      await value(
        metrics,
        'webhook_requests_total{kind="tool_call",outcome="error",error_class="internal"}',
      ),
    ).toBe(2);
    expect(await metrics.metrics()).not.toContain('customer.example');
  });

  it('times sent calls in seconds per kind, not the refusals made before sending', async () => {
    const kind = 'end_call_webhook';
    metrics.observeWebhook({ kind, outcome: 'success', latencyMs: 7 });
    metrics.observeWebhook({ kind, outcome: 'error', errorClass: 'timeout', latencyMs: 10_000 });
    metrics.observeWebhook({ kind, outcome: 'error', errorClass: 'config', latencyMs: 0 });
    metrics.observeWebhook({ kind, outcome: 'error', errorClass: 'blocked', latencyMs: 0 });
    const series = `webhook_request_duration_seconds`;
    expect(await value(metrics, `${series}_count{kind="${kind}"}`)).toBe(2);
    expect(await value(metrics, `${series}_sum{kind="${kind}"}`)).toBeCloseTo(10.007);
    expect(await value(metrics, `${series}_bucket{le="0.005",kind="${kind}"}`)).toBe(0);
    expect(await value(metrics, `${series}_bucket{le="0.01",kind="${kind}"}`)).toBe(1);
    expect(await value(metrics, `${series}_bucket{le="10",kind="${kind}"}`)).toBe(2);
  });
});
