import { randomUUID } from 'node:crypto';
import { OUTCOME_UNKNOWN_MESSAGE } from '../../../src/activity-log/attempt-ledger';
import { EndCallWebhookProcessor } from '../../../src/assistant/jobs/end-call-webhook.job';
import type { EndCallJobData } from '../../../src/contracts/end-call-webhook.contract';
import type { InboundContextLookupJobData } from '../../../src/contracts/inbound-context-lookup.contract';
import { InboundContextLookupProcessor } from '../../../src/lookup/jobs/inbound-context-lookup.job';
import type { ToolCallJobData } from '../../../src/contracts/tool-call.contract';
import type { QueueJob } from '../../../src/queue/job-queue';
import { ToolCallProcessor } from '../../../src/tool/jobs/tool-call.job';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { toolApi } from '../../api/tool-api';
import { appSuite } from '../../utils/create-test-app';

/** The first request of each job is answered this late: its worker "dies" in between. */
const FIRST_ANSWER_DELAY_MS = 2500;

/**
 * A worker that stops mid-request, simulated in one process: a job's first run sends its request
 * and is still waiting for the answer when the same job is handed over again (as Bull hands over
 * the job of a dead worker once its lock expires). The redelivered run must record the first
 * attempt as "outcome unknown", send again with the same `webhook-id`, and the first run's late
 * entry must not be written a second time: exactly one entry per request the receiver saw.
 */
describe('activity log across a worker stopping mid-request (e2e)', () => {
  const suite = appSuite({ users: ['owner'], server: true });
  const seen = new Map<string, number>();

  /** Answers the first request of each path late, later ones at once. */
  const lateFirst = (path: string, body: Record<string, unknown> = { ok: true }) =>
    suite.server.respond(path, () => {
      const n = (seen.get(path) ?? 0) + 1;
      seen.set(path, n);
      return { status: 200, body, delayMs: n === 1 ? FIRST_ANSWER_DELAY_MS : 0 };
    });

  const jobOf = <D>(data: D): QueueJob<D> => ({
    id: `crash-${randomUUID()}`,
    data,
    timestamp: Date.now(),
    attemptsMade: 0,
    opts: {},
    discard: () => undefined,
  });

  async function entriesOf(roomName: string) {
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: roomName })
      .set(suite.owner.auth)
      .expect(200);
    return (res.body as { data: { logs: Record<string, unknown>[] } }).data.logs as {
      status: string;
      error_class: string | null;
      message: string;
      request_data: Record<string, unknown>;
    }[];
  }

  /** Runs `job` and, while its first request is unanswered, runs it again; both finish. */
  async function crashAndRedeliver(path: string, handle: () => Promise<unknown>) {
    const first = handle();
    await suite.server.waitForRequests(path, 1, 10_000);
    await handle();
    await first;
    // Any late write has had its chance.
    await new Promise((resolve) => setTimeout(resolve, 300));
    return suite.server.requestsTo(path);
  }

  function expectOneEntryPerRequest(
    requests: { headers: Record<string, unknown> }[],
    entries: Awaited<ReturnType<typeof entriesOf>>,
  ) {
    expect(requests).toHaveLength(2);
    const ids = requests.map((r) => String(r.headers['webhook-id']));
    expect(ids[1]).toBe(ids[0]);
    expect(entries).toHaveLength(2);
    expect(entries.every((e) => e.request_data.webhook_id === ids[0])).toBe(true);
    const unknown = entries.filter((e) => e.message === OUTCOME_UNKNOWN_MESSAGE);
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ status: 'error', error_class: 'internal' });
    expect(entries.filter((e) => e.status === 'success')).toHaveLength(1);
  }

  /**
   * `total` (from the per-day counters) of each filter equals the owner's entries that match it:
   * a late entry that was not written again was not counted again either.
   */
  async function expectTotalsMatchEntries() {
    const page = (query: Record<string, string | number>) =>
      suite.ctx.http().get('/logs').query(query).set(suite.owner.auth).expect(200);
    const all = (await page({ limit: 100 })).body.data.logs as Record<string, unknown>[];
    const filterSets: Record<string, string>[] = [
      {},
      { error_class: 'internal' },
      { error_class: 'internal', log_type: 'tool_call' },
      { error_class: 'internal', log_type: 'end_call_webhook', status: 'error' },
      { error_class: 'internal', log_type: 'inbound_context_lookup' },
      { status: 'success' },
    ];
    for (const filters of filterSets) {
      const matching = all.filter((e) => Object.entries(filters).every(([k, v]) => e[k] === v));
      const total = (await page({ ...filters, limit: 1 })).body.data.total as number;
      expect({ filters, total }).toEqual({ filters, total: matching.length });
    }
  }

  it('a redelivered tool call records the lost attempt once and resends it with the same webhook-id', async () => {
    lateFirst('/crash-tool');
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.owner).create();
    const { tool_id: toolId } = await toolApi(suite.ctx, suite.owner).create({
      tool_name: 'crash_tool',
      tool_description: 'Answers its first call late',
      tool_parameters: [{ name: 'q', type: 'string', description: 'Anything' }],
      tool_execution_type: 'webhook',
      tool_execution_config: { url: suite.server.url('/crash-tool') },
    });
    await toolApi(suite.ctx, suite.owner).attach(assistantId, [toolId]);
    const room = `room-crash-${randomUUID()}`;
    // No tool_call_id: the webhook-id must still be the same on the redelivered request.
    const job = jobOf<ToolCallJobData>({
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: room,
      arguments: { q: 'x' },
    });
    const processor = suite.ctx.app.get(ToolCallProcessor, { strict: false });
    const requests = await crashAndRedeliver('/crash-tool', () => processor.handle(job));
    expectOneEntryPerRequest(requests, await entriesOf(room));
    await expectTotalsMatchEntries();
  });

  it('a redelivered end-call delivery records the lost attempt once and resends it with the same webhook-id', async () => {
    lateFirst('/crash-end-call');
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.owner).create(
      assistantBody({ assistant_end_call_url: suite.server.url('/crash-end-call') }),
    );
    const room = `room-crash-${randomUUID()}`;
    const job = jobOf<EndCallJobData>({
      assistant_id: assistantId,
      room_name: room,
      payload: { room_name: room, event: 'call_ended' },
    });
    const processor = suite.ctx.app.get(EndCallWebhookProcessor, { strict: false });
    const requests = await crashAndRedeliver('/crash-end-call', () => processor.handle(job));
    expectOneEntryPerRequest(requests, await entriesOf(room));
    // The same body both times.
    expect(requests[1].json).toEqual(requests[0].json);
    await expectTotalsMatchEntries();
  });

  it('a redelivered lookup records the lost strategy request once and resends it with the same webhook-id', async () => {
    lateFirst('/crash-lookup', { context: { name: 'Asha' } });
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.owner).create();
    const strategy = strategyBody(
      suite.server.url('/crash-lookup'),
      { timeout_seconds: 5 },
      { strategy_name: `crash lookup ${randomUUID()}` },
    );
    const { phone } = await routeNumber(suite.ctx, suite.owner, assistantId, strategy);
    const room = `room-crash-${randomUUID()}`;
    const job = jobOf<InboundContextLookupJobData>({ room_name: room, inbound_number: phone });
    const processor = suite.ctx.app.get(InboundContextLookupProcessor, { strict: false });
    const requests = await crashAndRedeliver('/crash-lookup', () => processor.handle(job));
    expectOneEntryPerRequest(requests, await entriesOf(room));
    expect(requests[1].json).toEqual(requests[0].json);
    await expectTotalsMatchEntries();
  });
});
