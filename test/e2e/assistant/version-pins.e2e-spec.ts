import { randomUUID } from 'node:crypto';
import type { EndCallOutcome } from '../../../src/contracts/end-call-webhook.contract';
import {
  endCallWebhookContract,
  inboundContextLookupContract,
  toolCallContract,
} from '../../../src/contracts';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { QUEUES } from '../../../src/contracts/queues';
import type { ToolCallResult } from '../../../src/contracts/tool-call.contract';
import { assistantApi } from '../../api/assistant-api';
import { inboundApi } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { appSuite } from '../../utils/create-test-app';

const TOKEN = 'sk_live_pinned_tool_token_7c1d';

/**
 * A published version is what its callers get until its owner decides otherwise: the tool calls
 * and the end-call delivery of a pinned room run the version, not the working copy.
 */
describe('Pins that pin everything (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true, producer: true });

  beforeAll(async () => {
    await secretApi(suite.ctx, suite.user).create('PIN_TOKEN', TOKEN);
  });

  const http = () => suite.ctx.http();
  const publish = (assistantId: string) => assistantApi(suite.ctx, suite.user).publish(assistantId);

  const lookup = (room: string, inboundId: string) =>
    suite.producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, {
      room_name: room,
      inbound_id: inboundId,
    });
  const toolCall = async (data: Record<string, unknown>) => {
    const result = await suite.producer.run<ToolCallResult>(QUEUES.TOOL_CALL, data);
    expect(toolCallContract.checkResult(result).ok).toBe(true);
    return result;
  };
  const endCall = async (data: Record<string, unknown>) => {
    const result = await suite.producer.run<EndCallOutcome>(QUEUES.END_CALL_WEBHOOK, data);
    expect(endCallWebhookContract.checkResult(result).ok).toBe(true);
    return result;
  };
  const logsOf = async (room: string, logType: string) =>
    (
      await http()
        .get('/logs')
        .query({ room_name: room, log_type: logType })
        .set(suite.user.auth)
        .expect(200)
    ).body.data.logs as Array<{ status: string; request_data: Record<string, unknown> }>;

  /** An assistant with a webhook tool (secret header) at /p1/…, published as version 1, then edited. */
  async function publishedThenEdited() {
    const tag = randomUUID().slice(0, 8);
    const assistantId = (
      await assistantApi(suite.ctx, suite.user).create(
        assistantBody({ assistant_end_call_url: suite.server.url(`/end-v1-${tag}`) }),
      )
    ).assistant_id;
    const { tool_id: toolId } = await toolApi(suite.ctx, suite.user).create({
      tool_name: 'order_status',
      tool_description: 'Order status',
      tool_parameters: [{ name: 'order_id', type: 'string' }],
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: suite.server.url(`/tool-v1-${tag}`),
        headers: { Authorization: 'Bearer {{secret.PIN_TOKEN}}', 'X-Version': 'one' },
        timeout: 5,
      },
    });
    await toolApi(suite.ctx, suite.user).attach(assistantId, [toolId]);
    const version = await publish(assistantId);
    await http()
      .patch(`/tool/update/${toolId}`)
      .set(suite.user.auth)
      .send({
        tool_parameters: [{ name: 'city', type: 'string' }],
        tool_execution_config: {
          url: suite.server.url(`/tool-v2-${tag}`),
          headers: { 'X-Version': 'two' },
        },
      })
      .expect(200);
    await http()
      .patch(`/assistant/update/${assistantId}`)
      .set(suite.user.auth)
      .send({ assistant_end_call_url: suite.server.url(`/end-v2-${tag}`) })
      .expect(200);
    const pinned = await inboundApi(suite.ctx, suite.user).assign(
      inboundBody(assistantId, { assistant_version: version }),
    );
    const working = await inboundApi(suite.ctx, suite.user).assign(inboundBody(assistantId));
    for (const path of ['tool-v1', 'tool-v2', 'end-v1', 'end-v2'])
      suite.server.respond(`/${path}-${tag}`, { body: { ok: path } });
    return { tag, assistantId, toolId, version, pinned, working };
  }

  it("a pinned room's tool call runs the published tool; the working copy runs the edited one", async () => {
    const { tag, assistantId, toolId, version, pinned, working } = await publishedThenEdited();
    const [pinnedRoom, workingRoom] = [`room-${randomUUID()}`, `room-${randomUUID()}`];
    expect(await lookup(pinnedRoom, pinned.inbound_id)).toMatchObject({
      status: 'skipped',
      assistant_version: version,
      variant: null,
    });
    expect((await lookup(workingRoom, working.inbound_id)).assistant_version).toBeNull();

    const base = { assistant_id: assistantId, tool_id: toolId };
    const fromPinned = await toolCall({
      ...base,
      room_name: pinnedRoom,
      arguments: { order_id: 'A-1' },
    });
    expect(fromPinned).toMatchObject({
      status: 'success',
      result: { ok: 'tool-v1' },
      assistant_version: version,
    });
    const [sent] = suite.server.requestsTo(`/tool-v1-${tag}`);
    // The version's stored headers, its secret reference resolved at call time.
    expect(sent.headers).toMatchObject({ authorization: `Bearer ${TOKEN}`, 'x-version': 'one' });
    expect(sent.json).toEqual({ order_id: 'A-1' });

    // The working copy's parameters changed: order_id is no longer what it takes.
    const fromWorking = await toolCall({
      ...base,
      room_name: workingRoom,
      arguments: { city: 'Pune' },
    });
    expect(fromWorking).toMatchObject({
      status: 'success',
      result: { ok: 'tool-v2' },
      assistant_version: null,
    });
    expect(suite.server.requestsTo(`/tool-v2-${tag}`)[0].headers['x-version']).toBe('two');
    const refused = await toolCall({
      ...base,
      room_name: pinnedRoom,
      arguments: { city: 'Pune' },
    });
    expect(refused).toMatchObject({ status: 'error', assistant_version: version });
    expect(refused.error).toContain('order_id');

    const [entry] = await logsOf(pinnedRoom, 'tool_call');
    expect(entry.request_data).toMatchObject({ assistant_version: version });
    expect(JSON.stringify(entry)).not.toContain(TOKEN);
    expect((await logsOf(workingRoom, 'tool_call'))[0].request_data).toMatchObject({
      assistant_version: null,
    });
  });

  it('an explicit assistant_version wins over the room, null included', async () => {
    const { tag, assistantId, toolId, version, pinned } = await publishedThenEdited();
    const room = `room-${randomUUID()}`;
    await lookup(room, pinned.inbound_id);
    const base = { assistant_id: assistantId, tool_id: toolId, room_name: room };
    expect(
      await toolCall({ ...base, assistant_version: null, arguments: { city: 'Pune' } }),
    ).toMatchObject({ status: 'success', result: { ok: 'tool-v2' }, assistant_version: null });
    const elsewhere = { ...base, room_name: `room-${randomUUID()}` };
    expect(
      await toolCall({ ...elsewhere, assistant_version: version, arguments: { order_id: 'B' } }),
    ).toMatchObject({ status: 'success', result: { ok: 'tool-v1' }, assistant_version: version });
    expect(suite.server.requestsTo(`/tool-v1-${tag}`)).toHaveLength(1);
    expect(suite.server.requestsTo(`/tool-v2-${tag}`)).toHaveLength(1);

    const missing = await toolCall({ ...base, assistant_version: version + 5 });
    expect(missing).toMatchObject({ status: 'error', assistant_version: version + 5 });
    expect(missing.error).toContain(`Version ${version + 5}`);
    await expect(toolCall({ ...base, assistant_version: 0 })).rejects.toThrow(/assistant_version/);
    await expect(toolCall({ ...base, assistant_version: '1' })).rejects.toThrow(
      /assistant_version/,
    );
  });

  it('a tool attached after publishing is not in the version: an error naming it, nothing sent', async () => {
    const { assistantId, version, pinned } = await publishedThenEdited();
    const later = `/later-${randomUUID()}`;
    const { tool_id: laterId } = await toolApi(suite.ctx, suite.user).create({
      tool_name: 'later_tool',
      tool_description: 'Added after the version',
      tool_execution_type: 'webhook',
      tool_execution_config: { url: suite.server.url(later) },
    });
    await toolApi(suite.ctx, suite.user).attach(assistantId, [laterId]);
    const room = `room-${randomUUID()}`;
    await lookup(room, pinned.inbound_id);
    const result = await toolCall({ assistant_id: assistantId, tool_id: laterId, room_name: room });
    expect(result).toMatchObject({ status: 'error', assistant_version: version });
    expect(result.error).toContain(`version ${version}`);
    expect(suite.server.requestsTo(later)).toHaveLength(0);
    const [entry] = await logsOf(room, 'tool_call');
    expect(entry).toMatchObject({ status: 'error', request_data: { assistant_version: version } });
  });

  it('deleting a tool leaves the versions that hold it working', async () => {
    const { tag, assistantId, toolId, version, pinned } = await publishedThenEdited();
    await http().delete(`/tool/delete/${toolId}`).set(suite.user.auth).expect(200);
    const room = `room-${randomUUID()}`;
    await lookup(room, pinned.inbound_id);
    const base = { assistant_id: assistantId, tool_id: toolId, arguments: { order_id: 'C' } };
    expect(await toolCall({ ...base, room_name: room })).toMatchObject({
      status: 'success',
      result: { ok: 'tool-v1' },
      assistant_version: version,
    });
    expect(suite.server.requestsTo(`/tool-v1-${tag}`)[0].headers.authorization).toBe(
      `Bearer ${TOKEN}`,
    );
    const working = await toolCall({ ...base, room_name: `room-${randomUUID()}` });
    expect(working).toMatchObject({ status: 'error', assistant_version: null });
  });

  it("an end-call for a pinned room reaches the version's URL; the working copy's goes to the new one", async () => {
    const { tag, assistantId, version, pinned, working } = await publishedThenEdited();
    const [pinnedRoom, workingRoom] = [`room-${randomUUID()}`, `room-${randomUUID()}`];
    await lookup(pinnedRoom, pinned.inbound_id);
    await lookup(workingRoom, working.inbound_id);
    const payload = { reason: 'hangup' };
    expect(
      await endCall({ assistant_id: assistantId, room_name: pinnedRoom, payload }),
    ).toMatchObject({ status: 'delivered', assistant_version: version });
    expect(suite.server.requestsTo(`/end-v1-${tag}`).map((r) => r.json)).toEqual([payload]);
    expect(
      await endCall({ assistant_id: assistantId, room_name: workingRoom, payload }),
    ).toMatchObject({ status: 'delivered', assistant_version: null });
    expect(suite.server.requestsTo(`/end-v2-${tag}`)).toHaveLength(1);
    expect(
      await endCall({
        assistant_id: assistantId,
        room_name: workingRoom,
        payload,
        assistant_version: version,
      }),
    ).toMatchObject({ status: 'delivered', assistant_version: version });
    expect(suite.server.requestsTo(`/end-v1-${tag}`)).toHaveLength(2);
    const [entry] = await logsOf(pinnedRoom, 'end_call_webhook');
    expect(entry.request_data).toMatchObject({ assistant_version: version });
    const timeline = await http()
      .get(`/logs/timeline/${pinnedRoom}`)
      .set(suite.user.auth)
      .expect(200);
    expect(timeline.body.data.assistant_version).toBe(version);
  });

  it('the job contract refuses a bad assistant_version, naming it', () => {
    for (const contract of [toolCallContract, endCallWebhookContract]) {
      const parsed = contract.parse({
        tool_id: 't',
        assistant_id: 'a',
        room_name: 'r',
        payload: {},
        assistant_version: 1.5,
      });
      expect(parsed.ok ? '' : parsed.error).toContain('assistant_version');
    }
    expect(inboundContextLookupContract.spec.result.required).toContain('variant');
  });
});
