/**
 * Secret store values are never seen: every /secret response, every activity-log entry, the
 * captured service log, `GET /metrics` and (with Redis) the queue dashboard's views of every
 * queue and job, after the values have been created, rotated, resolved into a tool call, a
 * failing tool call, a strategy dry run and an end-call delivery, go through one scan.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { QUEUES } from '../../../src/contracts/queues';
import type {
  EndCallJobData,
  EndCallOutcome,
} from '../../../src/contracts/end-call-webhook.contract';
import type { ToolCallJobData, ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { assistantApi } from '../../api/assistant-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';
import { captureStdout, type LogCapture } from '../../utils/log-capture';
import { redisConfigured } from '../../utils/test-redis';

const ADMIN = process.env.ADMIN_API_KEY!;
const BOARD_AUTH = `Basic ${Buffer.from(`admin:${ADMIN}`).toString('base64')}`;
const BOARD_STATUSES = ['latest', 'active', 'waiting', 'completed', 'failed', 'delayed'];

describe('no secret store value in any response, activity-log entry or log line', () => {
  let ctx: TestContext;
  let server: CustomerServer;
  let user: TestUser;
  let logs: LogCapture;
  const tag = randomBytes(6).toString('hex');
  const VALUES = {
    first: `crm_first_${tag}_PLANTED01`,
    rotated: `crm_rotated_${tag}_PLANTED02`,
    path: `path_${tag}_PLANTED03`,
  };
  const texts: { what: string; text: string }[] = [];
  const record = async <T extends { status: number; text: string }>(
    what: string,
    req: PromiseLike<T>,
  ): Promise<T> => {
    const res = await req;
    texts.push({ what, text: res.text });
    return res;
  };

  beforeAll(async () => {
    logs = captureStdout();
    server = await startCustomerServer();
    server.respond('/fails', { status: 500, body: { error: 'boom' } });
    server.respondByDefault({ status: 200, body: { context: { name: 'Asha' } } });
    ctx = await createTestApp({ env: { LOG_LEVEL: 'trace', LOG_FORMAT: 'json' } });
    user = await ctx.newUser();
  });

  afterAll(async () => {
    logs.restore();
    await ctx.close();
    await server.close();
  });

  it('finds none of the planted values', async () => {
    const http = () => ctx.http();
    await record(
      'create',
      http()
        .post('/secret/create')
        .set(user.auth)
        .send({ secret_name: 'CRM', value: VALUES.first }),
    );
    await record(
      'create path',
      http().post('/secret/create').set(user.auth).send({ secret_name: 'SEG', value: VALUES.path }),
    );
    await record(
      'create duplicate (409)',
      http()
        .post('/secret/create')
        .set(user.auth)
        .send({ secret_name: 'CRM', value: VALUES.first }),
    );
    await record(
      'create bad name (400)',
      http()
        .post('/secret/create')
        .set(user.auth)
        .send({ secret_name: 'bad', value: VALUES.first }),
    );

    const { assistant_id: assistantId } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_end_call_url: server.url('/ended/{{secret.SEG}}') }),
    );
    const tool = (name: string, path: string) => ({
      tool_name: name,
      tool_description: 'd',
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: server.url(path),
        headers: { Authorization: 'Bearer {{secret.CRM}}' },
      },
    });
    const ok = await toolApi(ctx, user).create(tool('ok_tool', '/tool/{{secret.SEG}}'));
    const failing = await toolApi(ctx, user).create(tool('failing_tool', '/fails'));
    await toolApi(ctx, user).attach(assistantId, [ok.tool_id, failing.tool_id]);
    const calls: JobQueue<ToolCallJobData, ToolCallResult> = ctx.app.get(
      jobQueueToken(QUEUES.TOOL_CALL),
    );
    const room = `room-${randomUUID()}`;
    const call = async (toolId: string) =>
      texts.push({
        what: `tool-call result ${toolId}`,
        text: JSON.stringify(
          await calls.request(
            { tool_id: toolId, assistant_id: assistantId, room_name: room, arguments: {} },
            { waitMs: 20_000 },
          ),
        ),
      });
    await call(ok.tool_id);
    await record(
      'rotate',
      http().patch('/secret/update/CRM').set(user.auth).send({ value: VALUES.rotated }),
    );
    await call(ok.tool_id);
    await call(failing.tool_id);
    expect((await server.waitForRequests(`/tool/${VALUES.path}`, 2))[1].headers.authorization).toBe(
      `Bearer ${VALUES.rotated}`,
    );

    const strategy = await strategyApi(ctx, user).create(
      strategyBody(server.url('/context'), { headers: { 'X-Auth': '{{secret.CRM}}' } }),
    );
    await record(
      'dry run',
      http().post(`/inbound_context_strategy/test/${strategy.strategy_id}`).set(user.auth).send({}),
    );
    const endCalls: JobQueue<EndCallJobData, EndCallOutcome> = ctx.app.get(
      jobQueueToken(QUEUES.END_CALL_WEBHOOK),
    );
    texts.push({
      what: 'end-call outcome',
      text: JSON.stringify(
        await endCalls.request(
          { assistant_id: assistantId, room_name: room, payload: { event: 'call.ended' } },
          { waitMs: 15_000 },
        ),
      ),
    });

    await record('list', http().get('/secret/list').set(user.auth));
    await record('details', http().get('/secret/details/CRM').set(user.auth));
    await record('delete referenced (409)', http().delete('/secret/delete/CRM').set(user.auth));
    await record('tool details', http().get(`/tool/details/${ok.tool_id}`).set(user.auth));
    await record(
      'strategy details',
      http().get(`/inbound_context_strategy/details/${strategy.strategy_id}`).set(user.auth),
    );
    await record('activity log', http().get('/logs').query({ limit: 100 }).set(user.auth));
    const metrics = await record(
      'GET /metrics',
      http().get('/metrics').set('Authorization', `Bearer ${ADMIN}`),
    );
    expect(metrics.status).toBe(200);
    if (redisConfigured) await recordQueueBoard();
    texts.push({ what: 'service log', text: logs.text() });

    const leaks = texts.flatMap(({ what, text }) =>
      Object.entries(VALUES)
        .filter(([, value]) => text.includes(value))
        .map(([name]) => `${name} in ${what}`),
    );
    expect(leaks).toEqual([]);
    // The scan saw what it should: the log captured lines, and the entries were written.
    expect(logs.text().length).toBeGreaterThan(0);
    expect(texts.find((t) => t.what === 'activity log')!.text).toContain('tool_call');
    expect(metrics.text).toContain('# TYPE');
    if (redisConfigured) {
      // The dashboard showed the jobs that used the secrets, their data and results included.
      const board = texts.filter((t) => t.what.startsWith('queue board')).map((t) => t.text);
      expect(board.join('\n')).toContain(ok.tool_id);
      expect(board.join('\n')).toContain(room);
    }
  });

  /** Every view of the queue dashboard: its page, each queue's jobs in each status, each job. */
  async function recordQueueBoard(): Promise<void> {
    const get = (path: string) => ctx.http().get(path).set('Authorization', BOARD_AUTH);
    const page = await record('queue board page', get('/admin/queues'));
    expect(page.status).toBe(200);
    for (const queue of Object.values(QUEUES))
      for (const status of BOARD_STATUSES) {
        const res = await record(
          `queue board ${queue} ${status}`,
          get('/admin/queues/api/queues').query({ activeQueue: queue, status, jobsPerPage: 100 }),
        );
        expect(res.status).toBe(200);
        const shown = (res.body as { queues: { name: string; jobs: { id: string }[] }[] }).queues;
        for (const job of shown.find((q) => q.name === queue)?.jobs ?? []) {
          const one = await record(
            `queue board ${queue} job ${job.id}`,
            get(`/admin/queues/api/queues/${encodeURIComponent(queue)}/${job.id}`),
          );
          expect(one.status).toBe(200);
          await record(
            `queue board ${queue} job ${job.id} logs`,
            get(`/admin/queues/api/queues/${encodeURIComponent(queue)}/${job.id}/logs`),
          );
        }
      }
  }
});
