import { randomUUID } from 'node:crypto';
import { UserEntity } from '../../../src/auth/user.entity';
import { signStandardWebhook } from '../../../src/common/http/webhook-signature';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { routeNumber } from '../../api/inbound-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { staticToolBody, webhookToolBody } from '../../fixtures/tool';
import { CallProducer } from '../../utils/call-producer';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer, type RecordedRequest } from '../../utils/customer-server';

type Entry = LogEntryDto;

/**
 * `POST /logs/replay/:log_id`: a delivery that failed is sent again once the receiver is back, with
 * the same body and `webhook-id` and a fresh, valid signature; the answer is the new entry, which
 * `GET /logs` shows with `replay_of`. Jobs come from the call stack's producer.
 */
describe('replay of logged requests (e2e)', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let producer: CallProducer;
  let user: TestUser;
  let stranger: TestUser;
  /** Each path answers 503 until it is switched to 200. */
  const up = new Set<string>();

  beforeAll(async () => {
    server = await CustomerServer.start();
    server.respondByDefault((request) =>
      up.has(request.path.split('?')[0])
        ? { status: 200, body: { received: true } }
        : { status: 410, body: { error: 'gone for now' } },
    );
    ctx = await createTestApp();
    producer = new CallProducer(ctx);
    [user, stranger] = await Promise.all([ctx.newUser(), ctx.newUser()]);
  });

  afterAll(async () => {
    await producer?.close();
    await ctx?.close();
    await server?.close();
  });

  const entriesOf = async (room: string): Promise<Entry[]> =>
    (await logsApi(ctx, user).page({ room_name: room })).logs;

  const replay = (who: TestUser, logId: string) =>
    ctx.http().post(`/logs/replay/${logId}`).set(who.auth);

  /** Signed with the user's webhook secret (made on their first signed request). */
  async function expectSigned(request: RecordedRequest): Promise<void> {
    const row = await ctx.dataSource
      .getRepository(UserEntity)
      .findOneByOrFail({ user_id: user.userId });
    const secret = row.webhook_secret!;
    const id = request.headers['webhook-id'] as string;
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(request.headers['webhook-signature']).toBe(
      signStandardWebhook(secret, id, timestamp, request.rawBody),
    );
  }

  it('sends a failed end-call delivery again after the receiver recovers: same body and webhook-id, a fresh signature', async () => {
    const path = `/ended/${randomUUID()}`;
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: server.url(path) }),
    );
    const room = `room-${randomUUID()}`;
    const payload = {
      room_name: room,
      ended_by: 'caller',
      transcript: [{ role: 'user', text: 'é 😀' }],
    };
    await producer
      .run(QUEUES.END_CALL_WEBHOOK, { assistant_id: assistantId, room_name: room, payload })
      .catch(() => undefined); // a 410 is final: the job fails, its entry says why
    const [failed] = await entriesOf(room);
    expect(failed).toMatchObject({
      log_type: 'end_call_webhook',
      status: 'error',
      replay_of: null,
    });
    const [first] = server.requestsTo(path);

    up.add(path);
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a later second for the timestamp
    const res = await replay(user, failed.log_id).expect(200);

    const entry = res.body.data as Entry;
    expect(entry).toMatchObject({
      log_type: 'end_call_webhook',
      status: 'success',
      error_class: null,
      replay_of: failed.log_id,
    });
    expect(entry.log_id).not.toBe(failed.log_id);
    const requests = server.requestsTo(path);
    expect(requests).toHaveLength(2);
    const again = requests[1];
    expect(again.rawBody).toBe(first.rawBody);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.headers['webhook-id']).toBe(failed.request_data.webhook_id);
    expect(Number(again.headers['webhook-timestamp'])).toBeGreaterThan(
      Number(first.headers['webhook-timestamp']),
    );
    await expectSigned(again);
    expect((await entriesOf(room)).map((e) => e.replay_of)).toEqual([failed.log_id, null]);
  });

  it('sends a failed webhook tool call again with its arguments and webhook-id, to the URL as it is now', async () => {
    const oldPath = `/tool-old/${randomUUID()}`;
    const newPath = `/tool-new/${randomUUID()}`;
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    const { tool_id: toolId } = await toolApi(ctx, user).create(
      webhookToolBody(
        { url: server.url(oldPath) },
        { tool_parameters: [{ name: 'order_id', type: 'string', description: 'Order number' }] },
      ),
    );
    await toolApi(ctx, user).attach(assistantId, [toolId]);
    const room = `room-${randomUUID()}`;
    const result = await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: room,
      arguments: { order_id: 'A-17' },
    });
    expect(result).toMatchObject({ status: 'error', error_class: 'http_4xx' });
    const [failed] = await entriesOf(room);
    const [first] = server.requestsTo(oldPath);
    expect(failed.request_data.webhook_id).toBe(first.headers['webhook-id']);

    await ctx
      .http()
      .patch(`/tool/update/${toolId}`)
      .set(user.auth)
      .send({ tool_execution_config: { url: server.url(newPath) } })
      .expect(200);
    up.add(newPath);
    const entry = (await replay(user, failed.log_id).expect(200)).body.data as Entry;

    expect(entry).toMatchObject({
      log_type: 'tool_call',
      status: 'success',
      replay_of: failed.log_id,
    });
    const [again] = server.requestsTo(newPath);
    expect(server.requestsTo(oldPath)).toHaveLength(1);
    expect(again.rawBody).toBe(first.rawBody);
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(again.headers['x-call-room-name']).toBe(room);
    await expectSigned(again);
  });

  it('refuses lookups and static tools (400), a malformed id (400), and another user or a missing entry (404)', async () => {
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create();
    const { inboundId } = await routeNumber(
      ctx,
      user,
      assistantId,
      strategyBody(server.url(`/ctx/${randomUUID()}`)),
    );
    const room = `room-${randomUUID()}`;
    await producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
      room_name: room,
      inbound_id: inboundId,
    });
    const { tool_id: staticId } = await toolApi(ctx, user).create(staticToolBody('fixed', 42));
    await toolApi(ctx, user).attach(assistantId, [staticId]);
    await producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: staticId,
      assistant_id: assistantId,
      room_name: room,
      arguments: {},
    });
    const entries = await entriesOf(room);
    const lookup = entries.find((e) => e.log_type === 'inbound_context_lookup')!;
    const staticCall = entries.find((e) => e.log_type === 'tool_call')!;

    for (const id of [lookup.log_id, staticCall.log_id]) {
      const res = await replay(user, id).expect(400);
      expect(res.body.data.errors[0].field).toBe('log_id');
    }
    expect((await replay(user, 'abc').expect(400)).body.data.errors[0].field).toBe('log_id');
    await replay(stranger, staticCall.log_id).expect(404);
    await replay(user, '999999999999').expect(404);
    expect(await entriesOf(room)).toHaveLength(entries.length);
  });
});
