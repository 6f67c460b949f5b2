import { randomUUID } from 'node:crypto';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import { QUEUES } from '../../../src/contracts/queues';
import { flushTelemetry } from '../../../src/telemetry/telemetry';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite } from '../../utils/create-test-app';
import type { ReceivedSpan } from '../../utils/otlp-receiver';
import { SPAN_KIND, tracingSuite } from '../../utils/otel-env';

const REPLAY_ROUTE = '/logs/replay/:log_id';

/**
 * `POST /logs/replay/:log_id` with tracing on: the request sent again is a client span under the
 * replay request's server span (which continues a caller's `traceparent`), and the new entry's
 * `trace_id` is that trace. No exported span names a parent that was never exported (the caller's
 * own span aside).
 */
describe('tracing on: a replayed request (e2e)', () => {
  const tracing = tracingSuite();
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  /** The spans of `traceId` once its replay request's server span is exported (ended on close). */
  async function traceOfReplay(traceId: string): Promise<ReceivedSpan[]> {
    const inTrace = () => tracing.receiver.spans.filter((span) => span.traceId === traceId);
    const served = () => inTrace().some((span) => span.attributes['http.route'] === REPLAY_ROUTE);
    for (let tries = 0; tries < 200 && !served(); tries++) {
      await flushTelemetry();
      if (!served()) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return inTrace();
  }

  /** An end-call delivery's entry, sent by a job with no `traceparent`. */
  async function deliveredEntry(path: string): Promise<LogEntryDto> {
    suite.server.respond(path, { status: 200, body: { received: true } });
    const { assistant_id } = await assistantApi(suite.ctx, suite.user).create(
      assistantBody({ assistant_end_call_url: suite.server.url(path) }),
    );
    const room = `room-${randomUUID()}`;
    await suite.producer.run(QUEUES.END_CALL_WEBHOOK, {
      assistant_id,
      room_name: room,
      payload: { room_name: room, ended_by: 'caller' },
    });
    const res = await suite.ctx.http().get('/logs').query({ room_name: room }).set(suite.user.auth);
    const [entry] = res.body.data.logs as LogEntryDto[];
    return entry;
  }

  /** Every parent named is a span of the trace, or the caller's own span when it sent one. */
  function expectKnownParents(spans: ReceivedSpan[], callerSpanId?: string): void {
    const ids = new Set(spans.map((span) => span.spanId));
    if (callerSpanId) ids.add(callerSpanId);
    const unknown = spans.filter((span) => span.parentSpanId && !ids.has(span.parentSpanId));
    expect(unknown).toEqual([]);
  }

  it.each([
    ['no traceparent', null],
    ['a caller traceparent', 'b7ad6b7169203331'],
  ])(
    'replay with %s: the client span is a child of the replay request server span',
    async (_, callerSpanId) => {
      const path = `/ended/${randomUUID()}`;
      const original = await deliveredEntry(path);
      const callerTrace = randomUUID().replace(/-/g, '');
      const request = suite.ctx.http().post(`/logs/replay/${original.log_id}`).set(suite.user.auth);
      if (callerSpanId) request.set('traceparent', `00-${callerTrace}-${callerSpanId}-01`);
      const res = await request.expect(200);
      const replayed = res.body.data as LogEntryDto;
      expect(replayed.replay_of).toBe(original.log_id);
      if (callerSpanId) expect(replayed.trace_id).toBe(callerTrace);

      const spans = await traceOfReplay(replayed.trace_id!);
      const server = spans.find((span) => span.attributes['http.route'] === REPLAY_ROUTE);
      const client = spans.find((span) => span.kind === SPAN_KIND.CLIENT);
      expect(server).toBeDefined();
      expect(server!.parentSpanId || null).toBe(callerSpanId);
      expect(client?.parentSpanId).toBe(server!.spanId);
      const sent = suite.server.requestsTo(path).at(-1)!;
      expect(sent.headers.traceparent).toBe(`00-${replayed.trace_id}-${client!.spanId}-01`);
      expectKnownParents(spans, callerSpanId ?? undefined);
    },
  );
});
