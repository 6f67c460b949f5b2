import { randomUUID } from 'node:crypto';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { toolApi } from '../../api/tool-api';
import { webhookToolBody } from '../../fixtures/tool';
import { appSuite } from '../../utils/create-test-app';

/** Longer than the default request budget (`REQUEST_TIMEOUT_MS`, 5 s). */
const SLOW_MS = 6500;

/**
 * A replay whose request takes longer than the default request budget: the route waits for it
 * (its budget covers the tool's timeout), and a retry with the same `Idempotency-Key` never sends
 * the request a second time.
 */
describe('replay slower than the default request budget (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  it('answers the replay with its entry and replays that answer to a retry: one delivery', async () => {
    const path = `/slow-tool/${randomUUID()}`;
    const { assistant_id: assistantId } = await assistantApi(suite.ctx, suite.user).create();
    const { tool_id: toolId } = await toolApi(suite.ctx, suite.user).create(
      webhookToolBody({ url: suite.server.url(path), timeout: 10 }),
    );
    await toolApi(suite.ctx, suite.user).attach(assistantId, [toolId]);
    suite.server.respond(path, { status: 410, body: { error: 'gone for now' } });
    const room = `room-${randomUUID()}`;
    const result = await suite.producer.run<ToolCallResult>(QUEUES.TOOL_CALL, {
      tool_id: toolId,
      assistant_id: assistantId,
      room_name: room,
      arguments: {},
    });
    expect(result).toMatchObject({ status: 'error' });
    const [failed] = (await logsApi(suite.ctx, suite.user).page({ room_name: room })).logs;

    suite.server.respond(path, { status: 200, body: { done: true }, delayMs: SLOW_MS });
    const key = `replay-${randomUUID()}`;
    const replay = () =>
      suite.ctx
        .http()
        .post(`/logs/replay/${failed.log_id}`)
        .set(suite.user.auth)
        .set('Idempotency-Key', key);
    const first = replay().then((res) => res);
    await suite.server.waitForRequests(path, 2, 5000);
    // While the first still runs, its key stays claimed.
    expect((await replay()).status).toBe(409);
    const answered = await first;
    expect(answered.status).toBe(200);
    expect(answered.body.data).toMatchObject({ status: 'success', replay_of: failed.log_id });

    const again = await replay().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(answered.body);
    // The original request and exactly one replay.
    expect(suite.server.requestsTo(path)).toHaveLength(2);
    const entries = (await logsApi(suite.ctx, suite.user).page({ room_name: room })).logs;
    expect(entries.filter((e) => e.replay_of === failed.log_id)).toHaveLength(1);
  }, 40_000);
});
