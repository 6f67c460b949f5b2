import { randomUUID } from 'node:crypto';
import { trace } from '@opentelemetry/api';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import { flushTelemetry, tracingEnabled } from '../../../src/telemetry/telemetry';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';
import type { CustomerResponse, RecordedRequest } from '../../utils/customer-server';
import type { ReceivedSpan } from '../../utils/otlp-receiver';
import { SPAN_ERROR, SPAN_KIND, tracingSuite } from '../../utils/otel-env';

const URL_SECRET = 'url-secret-7c1f9e';
const HEADER_SECRET = 'header-secret-52ab0d';
const { SERVER, CLIENT, CONSUMER } = SPAN_KIND;

function spanIdOf(request: RecordedRequest): { traceId: string; spanId: string } {
  const [, traceId, spanId] = String(request.headers.traceparent).split('-');
  return { traceId, spanId };
}

/**
 * A lookup whose job carries a traceparent, with the service traced as `main.ts` starts it (the
 * OTEL_* variables read before the app is created): returns what the customer received and the
 * entry's trace id.
 */
async function tracedLookup(
  suite: ReturnType<typeof appSuite<'user'>>,
  traceparent: string,
): Promise<{ received: RecordedRequest; entryTraceId: string }> {
  const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(assistantBody());
  const path = `/context-${randomUUID().slice(0, 8)}`;
  suite.server.respond(path, { body: { context: { name: 'Asha' } } });
  const { inboundId } = await routeNumber(
    suite.ctx,
    suite.user,
    assistant_id,
    strategyBody(suite.server.url(`${path}?tenant=acme&token=${URL_SECRET}`), {
      headers: { Authorization: `Bearer ${HEADER_SECRET}` },
    }),
  );
  const room = `room-${randomUUID()}`;
  const result = await suite.producer.run<InboundContextLookupResult>(
    QUEUES.INBOUND_CONTEXT_LOOKUP,
    { room_name: room, inbound_id: inboundId, traceparent },
  );
  expect(result.status).toBe('success');
  const res = await suite.ctx
    .http()
    .get('/logs')
    .query({ room_name: room })
    .set(suite.user.auth)
    .expect(200);
  const [entry] = res.body.data.logs as { trace_id: string }[];
  return { received: lastTo(suite, path), entryTraceId: entry.trace_id };
}

function lastTo(suite: ReturnType<typeof appSuite<'user'>>, path: string): RecordedRequest {
  const request = suite.server.requests.filter((r) => r.path.startsWith(path)).at(-1);
  if (!request) throw new Error(`nothing received on ${path}`);
  return request;
}

describe('tracing on: OTLP/HTTP JSON to a receiver (e2e)', () => {
  const tracing = tracingSuite();
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  const traceId = randomUUID().replace(/-/g, '');
  const producerSpan = 'a1b2c3d4e5f60718';

  it('a lookup is a job span and a client span in the producer trace; the customer and the entry name them', async () => {
    expect(tracing.startLine).toBe(
      `OpenTelemetry tracing on: spans exported to ${tracing.receiver.url}/v1/traces (http/json)`,
    );
    const { received, entryTraceId } = await tracedLookup(
      suite,
      `00-${traceId}-${producerSpan}-01`,
    );
    await flushTelemetry();
    const inTrace = tracing.receiver.spans.filter((span) => span.traceId === traceId);
    const job = inTrace.find((span) => span.kind === CONSUMER);
    const client = inTrace.find((span) => span.kind === CLIENT);
    expect(job).toMatchObject({
      parentSpanId: producerSpan,
      serviceName: 'voice-assistant-config',
      attributes: {
        'messaging.system': 'bull',
        'messaging.destination.name': QUEUES.INBOUND_CONTEXT_LOOKUP,
      },
    });
    const url = new URL(lastTo(suite, '/context-').path, suite.server.url('/'));
    expect(client).toMatchObject({
      parentSpanId: job!.spanId,
      attributes: {
        'http.request.method': 'POST',
        'server.address': '127.0.0.1',
        'url.full': `${url.origin}${url.pathname}?tenant=acme&token=****`,
        'http.response.status_code': 200,
      },
    });
    expect(client!.attributes).not.toHaveProperty('error.type');
    expect(spanIdOf(received)).toEqual({ traceId, spanId: client!.spanId });
    expect(entryTraceId).toBe(traceId);
    // No secret of the URL or the headers, and no job data, in anything exported.
    const exported = tracing.receiver.bodies.join('\n');
    expect(exported).not.toContain(URL_SECRET);
    expect(exported).not.toContain(HEADER_SECRET);
    expect(exported).not.toContain('Asha');
  });

  // Every failure class a lookup's entry can record for an answer, 2xx answers it cannot use
  // included: the client span says the same, with an ERROR status.
  const bigName = 'n'.repeat(50 * 1024);
  const answers: [string, CustomerResponse, string][] = [
    ['503', { status: 503, body: {} }, 'http_5xx'],
    ['401', { status: 401, body: {} }, 'auth'],
    ['a hang-up', { hangUp: true }, 'network'],
    [
      '200 not JSON',
      { body: 'not json', headers: { 'Content-Type': 'text/plain' } },
      'invalid_response',
    ],
    ['200 without context', { body: { ok: true } }, 'invalid_response'],
    [
      '200 whose context outgrows the prompt',
      { body: { context: { name: bigName } } },
      'invalid_response',
    ],
  ];
  it.each(answers)(
    'an endpoint answering %s: the client span has error.type = the entry error_class',
    async (_, answer, errorClass) => {
      const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(
        assistantBody({ assistant_prompt: 'Hello {{context.name}}. '.repeat(6) }),
      );
      const path = `/failing-${randomUUID().slice(0, 8)}`;
      suite.server.respond(path, answer);
      const { inboundId } = await routeNumber(
        suite.ctx,
        suite.user,
        assistant_id,
        strategyBody(suite.server.url(path)),
      );
      const failing = randomUUID().replace(/-/g, '');
      const room = `room-${randomUUID()}`;
      await suite.producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
        room_name: room,
        inbound_id: inboundId,
        traceparent: `00-${failing}-${producerSpan}-01`,
      });
      await flushTelemetry();
      const res = await suite.ctx
        .http()
        .get('/logs')
        .query({ room_name: room })
        .set(suite.user.auth);
      const [entry] = res.body.data.logs as { error_class: string; trace_id: string }[];
      const client = tracing.receiver.spans.find((s) => s.traceId === failing && s.kind === CLIENT);
      expect(entry).toMatchObject({ error_class: errorClass, trace_id: failing });
      expect(client?.attributes['error.type']).toBe(errorClass);
      expect(client?.status?.code).toBe(SPAN_ERROR);
    },
  );

  it('an HTTP request is a server span named by its route template', async () => {
    const res = await suite.ctx.http().get('/logs').query({ limit: 1 }).set(suite.user.auth);
    expect(res.status).toBe(200);
    await flushTelemetry();
    const server = tracing.receiver.spans.filter(
      (span: ReceivedSpan) => span.kind === SERVER && span.attributes['http.route'] === '/logs',
    );
    expect(server.at(-1)).toMatchObject({
      name: 'GET /logs',
      attributes: { 'http.request.method': 'GET', 'http.response.status_code': 200 },
    });
    expect(tracing.receiver.bodies.join('\n')).not.toContain(suite.user.apiKey);
  });
});

describe('tracing off: no endpoint set (e2e)', () => {
  const tracing = tracingSuite({ on: false });
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  it('no exporter runs; the customer still gets a span of the producer trace and the entry its id', async () => {
    expect(tracing.startLine).toBeNull();
    expect(tracingEnabled()).toBe(false);
    expect(trace.getTracer('probe').startSpan('probe').isRecording()).toBe(false);
    const traceId = randomUUID().replace(/-/g, '');
    const { received, entryTraceId } = await tracedLookup(
      suite,
      `00-${traceId}-a1b2c3d4e5f60718-01`,
    );
    await flushTelemetry();
    const seen = spanIdOf(received);
    expect(seen.traceId).toBe(traceId);
    expect(seen.spanId).toMatch(/^[0-9a-f]{16}$/);
    expect(seen.spanId).not.toBe('a1b2c3d4e5f60718');
    expect(entryTraceId).toBe(traceId);
    expect(tracing.receiver.bodies).toEqual([]);
  });
});
