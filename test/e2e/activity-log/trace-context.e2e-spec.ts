import { randomUUID } from 'node:crypto';
import type { EndCallOutcome } from '../../../src/contracts/end-call-webhook.contract';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { webhookToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';
import { type RecordedRequest } from '../../utils/customer-server';

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;

/** The parts of the `traceparent` a receiver got. */
function traceOf(request: RecordedRequest): { traceId: string; spanId: string; flags: string } {
  const match = TRACEPARENT.exec(String(request.headers.traceparent));
  if (!match) throw new Error(`no valid traceparent: ${String(request.headers.traceparent)}`);
  return { traceId: match[1], spanId: match[2], flags: match[3] };
}

/**
 * W3C trace context end to end: a `traceparent` in the job data of each of the three queues reaches
 * the customer's endpoint with the same trace id and a new span id, and the entry keeps the trace
 * id; `GET /logs?trace_id=` finds them. No traceparent, or an invalid one, starts a new trace.
 */
describe('trace context (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true, producer: true });
  let assistantId: string;
  const traceId = randomUUID().replace(/-/g, '');
  const parentSpan = 'a1b2c3d4e5f60718';
  const traceparent = `00-${traceId}-${parentSpan}-01`;

  beforeAll(async () => {
    suite.server.respond('/context', { body: { context: { name: 'Asha' } } });
    suite.server.respond('/tool', { body: { ok: true } });
    suite.server.respond('/end', { status: 204 });
    assistantId = (
      await assistantApi(suite.ctx, suite.user).create(
        assistantBody({ assistant_end_call_url: suite.server.url('/end') }),
      )
    ).assistant_id;
  });

  async function toolId(headers: Record<string, string> = {}): Promise<string> {
    const { tool_id } = await toolApi(suite.ctx, suite.user).create(
      webhookToolBody(
        { url: suite.server.url('/tool'), headers },
        { tool_name: `t_${randomUUID().slice(0, 8)}` },
      ),
    );
    await toolApi(suite.ctx, suite.user).attach(assistantId, [tool_id]);
    return tool_id;
  }

  it('the three queues carry the trace to the receiver (new span id each) and into the entries', async () => {
    const { inboundId } = await routeNumber(
      suite.ctx,
      suite.user,
      assistantId,
      strategyBody(suite.server.url('/context')),
    );
    const room = `room-${randomUUID()}`;
    const lookup = await suite.producer.run<InboundContextLookupResult>(
      QUEUES.INBOUND_CONTEXT_LOOKUP,
      {
        room_name: room,
        inbound_id: inboundId,
        traceparent,
      },
    );
    expect(lookup.status).toBe('success');
    // A customer's own traceparent header cannot replace the call's.
    const tool = await suite.producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: await toolId({ traceparent: `00-${'1'.repeat(32)}-${'2'.repeat(16)}-01` }),
      assistant_id: assistantId,
      room_name: room,
      arguments: {},
      traceparent,
    });
    expect(tool.status).toBe('success');
    const end = await suite.producer.run<EndCallOutcome>(QUEUES.END_CALL_WEBHOOK, {
      assistant_id: assistantId,
      room_name: room,
      payload: { room },
      traceparent,
    });
    expect(end.status).toBe('delivered');

    const received = ['/context', '/tool', '/end'].map((path) =>
      traceOf(suite.server.requestsTo(path)[0]),
    );
    for (const seen of received) {
      expect(seen.traceId).toBe(traceId);
      expect(seen.spanId).not.toBe(parentSpan);
      expect(seen.flags).toBe('01');
    }
    expect(new Set(received.map((seen) => seen.spanId)).size).toBe(3);

    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ trace_id: traceId })
      .set(suite.user.auth)
      .expect(200);
    expect(res.body.data.total).toBe(3);
    expect(
      (res.body.data.logs as { log_type: string; trace_id: string; room_name: string }[])
        .map((e) => [e.log_type, e.trace_id, e.room_name])
        .sort(),
    ).toEqual([
      ['end_call_webhook', traceId, room],
      ['inbound_context_lookup', traceId, room],
      ['tool_call', traceId, room],
    ]);
    const stranger = await suite.ctx.newUser();
    const none = await suite.ctx
      .http()
      .get('/logs')
      .query({ trace_id: traceId })
      .set(stranger.auth);
    expect(none.body.data.total).toBe(0);
  });

  it.each([
    ['none', undefined],
    ['an invalid one', 'not-a-traceparent'],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-${parentSpan}-01`],
  ])('with %s, a new trace is started and the job does not fail', async (_, given) => {
    suite.server.reset();
    suite.server.respond('/tool', { body: { ok: true } });
    const room = `room-${randomUUID()}`;
    const result = await suite.producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: await toolId(),
      assistant_id: assistantId,
      room_name: room,
      arguments: {},
      ...(given !== undefined && { traceparent: given }),
    });
    expect(result.status).toBe('success');
    const seen = traceOf(suite.server.requestsTo('/tool')[0]);
    expect(seen.traceId).not.toBe(traceId);
    expect(seen.traceId).not.toMatch(/^0+$/);
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: room })
      .set(suite.user.auth)
      .expect(200);
    expect(res.body.data.logs).toEqual([expect.objectContaining({ trace_id: seen.traceId })]);
  });

  it('GET /logs?trace_id= takes 32 lowercase hex digits only (400 naming the field)', async () => {
    for (const bad of [traceId.toUpperCase(), traceId.slice(1), `${traceId}0`, 'xyz']) {
      const res = await suite.ctx.http().get('/logs').query({ trace_id: bad }).set(suite.user.auth);
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([
        { field: 'trace_id', message: 'trace_id must be 32 lowercase hexadecimal digits' },
      ]);
    }
  });
});
