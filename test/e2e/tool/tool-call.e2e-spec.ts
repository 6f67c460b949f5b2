import { randomUUID } from 'node:crypto';
import { UserEntity } from '../../../src/auth/user.entity';
import { signStandardWebhook } from '../../../src/common/http/webhook-signature';
import { JobFailedError, jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallJobData, ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const SECRET_HEADER_VALUE = 'Bearer sk_live_TOOLSECRET_5f2a9c';

describe('tool-call jobs (e2e)', () => {
  const suite = appSuite({ users: ['owner', 'stranger'], server: true });
  let queue: JobQueue<ToolCallJobData, ToolCallResult>;
  let assistantId: string;
  const room = `room-${randomUUID()}`;

  const call = (tool_id: string, args: unknown, roomName = room) =>
    queue.request(
      { tool_id, assistant_id: assistantId, room_name: roomName, arguments: args },
      { waitMs: 20_000 },
    );

  const createAssistant = async (user: TestUser): Promise<string> =>
    (await assistantApi(suite.ctx, user).create()).assistant_id;

  async function createTool(
    user: TestUser,
    body: Record<string, unknown>,
    attachTo?: string,
  ): Promise<string> {
    const { tool_id: toolId } = await toolApi(suite.ctx, user).create(body);
    if (attachTo) await toolApi(suite.ctx, user).attach(attachTo, [toolId]);
    return toolId;
  }

  const webhookTool = (name: string, path: string, extra: Record<string, unknown> = {}) => ({
    tool_name: name,
    tool_description: `Calls ${path}`,
    tool_parameters: [
      { name: 'order_id', type: 'string', description: 'Order number' },
      { name: 'express', type: 'boolean', required: false },
      { name: 'speed', type: 'string', required: false, enum: ['standard', 'express'] },
    ],
    tool_execution_type: 'webhook',
    tool_execution_config: { url: suite.server.url(path), ...extra },
  });

  async function logsOf(roomName: string) {
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: roomName, log_type: 'tool_call' })
      .set(suite.owner.auth)
      .expect(200);
    return res.body as { data: { logs: Record<string, unknown>[]; total: number } };
  }

  beforeAll(async () => {
    assistantId = await createAssistant(suite.owner);
    queue = suite.ctx.app.get(jobQueueToken(QUEUES.TOOL_CALL));
  });

  it('POSTs the validated arguments as JSON with the tool headers, signed, and returns the parsed answer', async () => {
    suite.server.respond('/orders/status', {
      status: 200,
      body: { status: 'shipped', eta_days: 2 },
    });
    const toolId = await createTool(
      suite.owner,
      webhookTool('order_status', '/orders/status', {
        headers: { Authorization: SECRET_HEADER_VALUE, 'X-Tenant': 'acme-tenant' },
        timeout: 5,
      }),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;

    const result = await call(toolId, { speed: 'express', order_id: 'A-1001' }, roomName);

    expect(result).toEqual({
      status: 'success',
      result: { status: 'shipped', eta_days: 2 },
      latency_ms: expect.any(Number),
      error: null,
      error_class: null,
      assistant_version: null,
    });
    const [request] = suite.server.requestsTo('/orders/status');
    expect(suite.server.requestsTo('/orders/status')).toHaveLength(1);
    expect(request.method).toBe('POST');
    expect(request.rawBody).toBe('{"order_id":"A-1001","speed":"express"}');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers.authorization).toBe(SECRET_HEADER_VALUE);
    expect(request.headers['x-tenant']).toBe('acme-tenant');
    // Standard Webhooks signature with the owner's signing secret over the exact bytes sent.
    const user = await suite.ctx.dataSource
      .getRepository(UserEntity)
      .findOneByOrFail({ user_id: suite.owner.userId });
    const id = request.headers['webhook-id'] as string;
    const timestamp = Number(request.headers['webhook-timestamp']);
    expect(id).toMatch(/^msg_/);
    expect(request.headers['webhook-signature']).toBe(
      signStandardWebhook(user.webhook_secret!, id, timestamp, request.rawBody),
    );

    const logs = await logsOf(roomName);
    expect(logs.data.total).toBe(1);
    expect(logs.data.logs[0]).toMatchObject({
      log_type: 'tool_call',
      status: 'success',
      assistant_id: assistantId,
      room_name: roomName,
      latency_ms: expect.any(Number),
      request_data: {
        tool_id: toolId,
        tool_name: 'order_status',
        execution_type: 'webhook',
        url: suite.server.url('/orders/status'),
        headers: { Authorization: '****', 'X-Tenant': '****' },
        arguments: { order_id: 'A-1001', speed: 'express' },
      },
      response_data: { status_code: 200, body: { status: 'shipped', eta_days: 2 } },
    });
    const raw = JSON.stringify(logs);
    expect(raw).not.toContain('sk_live_TOOLSECRET');
    expect(raw).not.toContain('acme-tenant');
    expect(raw).not.toContain(user.webhook_secret!.slice(6));
  });

  it('writes the entry of a call whose answer holds lone surrogates or deep nesting, text made well-formed', async () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 40; i++) deep = [deep];
    // JSON.stringify writes a lone surrogate as the escape `\ud800`, which parses back to one.
    suite.server.respond('/odd-answer', {
      status: 200,
      body: { reply: 'caf\ud800', ['k\udfff']: 'v', deep },
    });
    const toolId = await createTool(
      suite.owner,
      webhookTool('odd_answer', '/odd-answer'),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;
    expect(await call(toolId, { order_id: 'A-1' }, roomName)).toMatchObject({
      status: 'success',
    });

    const logs = await logsOf(roomName);
    expect(logs.data.total).toBe(1);
    const [entry] = logs.data.logs as {
      request_data: { arguments: Record<string, unknown> };
      response_data: { body: Record<string, unknown> };
    }[];
    expect(entry.request_data.arguments).toEqual({ order_id: 'A-1' });
    expect(entry.response_data.body).toMatchObject({ reply: 'caf\ufffd', ['k\ufffd']: 'v' });
    const stored = JSON.stringify(entry.response_data.body.deep);
    expect(stored).toContain('nested deeper than');
    expect(stored).not.toContain('bottom');
  });

  it('returns a text answer as text', async () => {
    suite.server.respond('/text', {
      status: 200,
      body: 'Open until 6 pm',
      headers: { 'content-type': 'text/plain' },
    });
    const toolId = await createTool(suite.owner, webhookTool('opening_text', '/text'), assistantId);
    expect(await call(toolId, { order_id: 'x' })).toMatchObject({
      status: 'success',
      result: 'Open until 6 pm',
      error: null,
    });
  });

  it('returns a static value without any network call', async () => {
    const value = { opening_hours: 'Mon-Fri 9-18', weekend: false, days: [1, 2, 3] };
    const toolId = await createTool(
      suite.owner,
      {
        tool_name: 'opening_hours',
        tool_description: 'Opening hours',
        tool_execution_type: 'static_return',
        tool_execution_config: { value },
      },
      assistantId,
    );
    const before = suite.server.requests.length;
    const roomName = `room-${randomUUID()}`;
    expect(await call(toolId, {}, roomName)).toEqual({
      status: 'success',
      result: value,
      latency_ms: expect.any(Number),
      error: null,
      error_class: null,
      assistant_version: null,
    });
    expect(suite.server.requests.length).toBe(before);
    const logs = await logsOf(roomName);
    expect(logs.data.logs).toEqual([
      expect.objectContaining({
        status: 'success',
        request_data: {
          tool_id: toolId,
          tool_call_id: null,
          assistant_version: null,
          tool_name: 'opening_hours',
          execution_type: 'static_return',
          url: null,
          arguments: {},
        },
        response_data: { status_code: null, body: value },
      }),
    ]);
  });

  it('reports an HTTP error from the webhook as status error, with its body', async () => {
    suite.server.respond('/fails', { status: 503, body: { error: 'database down' } });
    const toolId = await createTool(
      suite.owner,
      webhookTool('flaky_lookup', '/fails'),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;
    expect(await call(toolId, { order_id: 'A-1' }, roomName)).toEqual({
      status: 'error',
      result: { error: 'database down' },
      latency_ms: expect.any(Number),
      error: 'Tool "flaky_lookup" failed: its webhook answered HTTP 503.',
      error_class: 'http_5xx',
      assistant_version: null,
    });
    const logs = await logsOf(roomName);
    expect(logs.data.logs[0]).toMatchObject({
      status: 'error',
      message: 'Tool "flaky_lookup" failed: its webhook answered HTTP 503.',
      response_data: { status_code: 503, body: { error: 'database down' } },
    });
  });

  it('gives up at the tool timeout and reports it', async () => {
    // It answers minutes later: a call that waited for it would not return within the test.
    suite.server.respond('/slow', { status: 200, body: { late: true }, delayMs: 120_000 });
    const toolId = await createTool(
      suite.owner,
      webhookTool('slow_lookup', '/slow', { timeout: 0.5 }),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;
    const result = await call(toolId, { order_id: 'A-2' }, roomName);
    expect(result).toEqual({
      status: 'error',
      result: null,
      latency_ms: expect.any(Number),
      error: 'Tool "slow_lookup" failed: its webhook did not answer within 0.5 s.',
      error_class: 'timeout',
      assistant_version: null,
    });
    expect(result.latency_ms).toBeGreaterThanOrEqual(450);
    const logs = await logsOf(roomName);
    expect(logs.data.logs[0]).toMatchObject({
      status: 'error',
      response_data: { status_code: null, body: null, error: 'timeout' },
    });
  });

  it('refuses invalid arguments before anything is sent, with a reason the model can act on', async () => {
    const toolId = await createTool(
      suite.owner,
      webhookTool('strict_lookup', '/never'),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;
    const result = await call(toolId, { order_id: 42, speed: 'warp', coupon: 'FREE' }, roomName);
    expect(result).toEqual({
      status: 'error',
      result: null,
      latency_ms: expect.any(Number),
      error:
        'Invalid arguments: argument "order_id" must be a string, got number; argument "speed" must be one of "standard", "express", got "warp"; unknown argument "coupon"; the tool accepts: order_id, express, speed.',
      error_class: 'config',
      assistant_version: null,
    });
    expect(await call(toolId, {})).toMatchObject({
      status: 'error',
      error: 'Invalid arguments: missing required argument "order_id" (string).',
    });
    expect(suite.server.requestsTo('/never')).toHaveLength(0);
    const logs = await logsOf(roomName);
    expect(logs.data.logs[0]).toMatchObject({
      status: 'error',
      request_data: {
        tool_id: toolId,
        tool_name: 'strict_lookup',
        arguments: { order_id: 42, speed: 'warp', coupon: 'FREE' },
      },
    });
  });

  it('refuses a tool that is not attached to the assistant', async () => {
    const toolId = await createTool(suite.owner, webhookTool('unattached', '/unattached'));
    expect(await call(toolId, { order_id: 'A' })).toMatchObject({
      status: 'error',
      result: null,
      error: 'Tool "unattached" is not attached to this assistant.',
    });
    expect(suite.server.requestsTo('/unattached')).toHaveLength(0);
  });

  it("refuses another user's tool as not found, without revealing it", async () => {
    const strangersAssistant = await createAssistant(suite.stranger);
    const toolId = await createTool(
      suite.stranger,
      webhookTool('their_secret_tool', '/theirs'),
      strangersAssistant,
    );
    const roomName = `room-${randomUUID()}`;
    expect(await call(toolId, { order_id: 'A' }, roomName)).toMatchObject({
      status: 'error',
      error: `Tool ${toolId} not found.`,
    });
    expect(suite.server.requestsTo('/theirs')).toHaveLength(0);
    const logs = await logsOf(roomName);
    expect(logs.data.logs[0]).toMatchObject({
      status: 'error',
      request_data: { tool_id: toolId, tool_name: null, url: null },
    });
    expect(JSON.stringify(logs)).not.toContain('their_secret_tool');
  });

  it('refuses an unknown tool', async () => {
    const missing = randomUUID();
    expect(await call(missing, {})).toMatchObject({
      status: 'error',
      error: `Tool ${missing} not found.`,
    });
  });

  it('sends the call context as headers and one webhook-id per tool_call_id', async () => {
    suite.server.respond('/orders/context', { status: 200, body: { ok: true } });
    const toolId = await createTool(
      suite.owner,
      webhookTool('order_context', '/orders/context', {
        headers: { 'x-call-room-name': 'spoofed', 'X-Tenant': 'acme-tenant' },
      }),
      assistantId,
    );
    const roomName = `room-${randomUUID()}`;
    const callWith = (toolCallId?: string) =>
      queue.request(
        {
          tool_id: toolId,
          assistant_id: assistantId,
          room_name: roomName,
          arguments: { order_id: 'A-1' },
          ...(toolCallId ? { tool_call_id: toolCallId } : {}),
        },
        { waitMs: 20_000 },
      );

    await callWith('call_abc123');
    await callWith('call_abc123');
    await callWith('call_other');
    await callWith();

    const requests = suite.server.requestsTo('/orders/context');
    expect(requests).toHaveLength(4);
    for (const request of requests) {
      expect(request.headers['x-call-room-name']).toBe(roomName);
      expect(request.headers['x-call-assistant-id']).toBe(assistantId);
      expect(request.headers['x-tenant']).toBe('acme-tenant');
      expect(request.rawBody).toBe('{"order_id":"A-1"}');
    }
    expect(requests.map((r) => r.headers['x-call-tool-call-id'])).toEqual([
      'call_abc123',
      'call_abc123',
      'call_other',
      undefined,
    ]);
    const ids = requests.map((r) => r.headers['webhook-id']);
    expect(ids[1]).toBe(ids[0]);
    expect(new Set(ids).size).toBe(3);

    const logs = await logsOf(roomName);
    expect(
      logs.data.logs.map((l) => (l.request_data as { tool_call_id: string | null }).tool_call_id),
    ).toEqual(expect.arrayContaining(['call_abc123', 'call_abc123', 'call_other', null]));
  });

  it('fails a job with malformed data at once', async () => {
    await expect(
      queue.request({ tool_id: 'x', room_name: 'r' } as unknown as ToolCallJobData, {
        waitMs: 10_000,
      }),
    ).rejects.toBeInstanceOf(JobFailedError);
  });
});
