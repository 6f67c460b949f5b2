import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { AssistantVersionEntity } from '../../../src/assistant/assistant-version.entity';
import { InboundMappingEntity } from '../../../src/inbound-context/inbound-mapping.entity';
import { assistantApi } from '../../api/assistant-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { ISO } from '../../fixtures/formats';
import { uniquePhone } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { staticToolBody } from '../../fixtures/tool';
import { BOTH_SCOPES } from '../../fixtures/user';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const TTS_KEY = 'sk_cartesia_versions_secret_0123456789';

describe('Published assistant versions (e2e)', () => {
  const suite = appSuite({
    users: ['alice', 'bob'],
    scopes: { alice: BOTH_SCOPES },
    server: true,
  });
  let client: InboundContextLookupClient;

  const http = () => suite.ctx.http();
  const publish = (user: TestUser, id: string, body?: unknown) => {
    const req = http().post(`/assistant/publish/${id}`).set(user.auth);
    return body === undefined ? req : req.send(body as object);
  };
  const versions = (user: TestUser, id: string, query: Record<string, unknown> = {}) =>
    http().get(`/assistant/versions/${id}`).query(query).set(user.auth);
  const details = (user: TestUser, id: string, query: Record<string, unknown> = {}) =>
    http().get(`/assistant/details/${id}`).query(query).set(user.auth);
  const update = (user: TestUser, id: string, body: Record<string, unknown>) =>
    http().patch(`/assistant/update/${id}`).set(user.auth).send(body).expect(200);

  const newAssistant = async (user: TestUser, prompt = 'Version one for {{context.name}}') =>
    (
      await assistantApi(suite.ctx, user).create(
        assistantBody({
          assistant_prompt: prompt,
          assistant_start_instruction: 'Hello {{context.name}}, v1',
          assistant_tts_config: { voice_id: 'voice-1', api_key: TTS_KEY },
        }),
      )
    ).assistant_id;

  const newTool = async (user: TestUser, name: string) =>
    (await toolApi(suite.ctx, user).create(staticToolBody(name, name, `The ${name} tool.`)))
      .tool_id;

  const newStrategy = async (user: TestUser, path: string) =>
    (
      await strategyApi(suite.ctx, user).create(
        strategyBody(suite.server.url(path), {}, { strategy_name: `strategy ${path}` }),
      )
    ).strategy_id;

  const assign = (user: TestUser, body: Record<string, unknown>) =>
    http()
      .post('/inbound/assign')
      .set(user.auth)
      .send({ service: 'exotel', inbound_config: { phone_number: uniquePhone() }, ...body });
  const updateMapping = (user: TestUser, id: string, body: Record<string, unknown>) =>
    http().patch(`/inbound/update/${id}`).set(user.auth).send(body);

  beforeAll(() => {
    client = suite.ctx.app.get(InboundContextLookupClient);
  });

  describe('publish and list', () => {
    it('numbers versions from 1 per assistant, with an optional note, newest first', async () => {
      const id = await newAssistant(suite.alice);
      const other = await newAssistant(suite.alice);
      const first = await publish(suite.alice, id).expect(200);
      expect(first.body).toEqual({
        success: true,
        message: 'Assistant version published',
        data: {
          assistant_id: id,
          version: 1,
          published_at: expect.stringMatching(ISO),
          note: null,
        },
      });
      const second = await publish(suite.alice, id, { note: 'Shorter greeting' }).expect(200);
      expect(second.body.data).toMatchObject({ version: 2, note: 'Shorter greeting' });
      expect((await publish(suite.alice, other, {}).expect(200)).body.data.version).toBe(1);

      const list = await versions(suite.alice, id).expect(200);
      expect(list.body.data).toEqual({
        items: [second.body.data, first.body.data],
        total: 2,
        page: 1,
        limit: 50,
      });
      const page2 = await versions(suite.alice, id, { page: 2, limit: 1 }).expect(200);
      expect(page2.body.data).toEqual({ items: [first.body.data], total: 2, page: 2, limit: 1 });
      const none = await versions(suite.alice, await newAssistant(suite.alice)).expect(200);
      expect(none.body.data).toEqual({ items: [], total: 0, page: 1, limit: 50 });
    });

    it('gives concurrent publishes distinct consecutive numbers', async () => {
      const id = await newAssistant(suite.alice);
      const results = await Promise.all(
        Array.from({ length: 6 }, (_, i) => publish(suite.alice, id, { note: `n${i}` })),
      );
      expect(results.map((r) => r.status)).toEqual(Array(6).fill(200));
      expect(results.map((r) => r.body.data.version as number).sort((a, b) => a - b)).toEqual([
        1, 2, 3, 4, 5, 6,
      ]);
    });

    it.each([
      [{ note: 'x'.repeat(501) }, 'note'],
      [{ note: 5 }, 'note'],
      [{ version: 3 }, 'version'],
    ])('refuses %j with 400', async (body, field) => {
      const id = await newAssistant(suite.alice);
      const res = await publish(suite.alice, id, body).expect(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
      expect((await versions(suite.alice, id).expect(200)).body.data.total).toBe(0);
    });

    it("is 404 on another user's or an unknown assistant, 400 on a bad id", async () => {
      const id = await newAssistant(suite.alice);
      await publish(suite.bob, id, {}).expect(404);
      await versions(suite.bob, id).expect(404);
      await publish(suite.alice, randomUUID(), {}).expect(404);
      await versions(suite.alice, randomUUID()).expect(404);
      await publish(suite.alice, 'nope', {}).expect(400);
      expect((await versions(suite.alice, id).expect(200)).body.data.total).toBe(0);
    });
  });

  describe('reading a version', () => {
    it('details and runtime return the snapshot; the working copy moves on', async () => {
      const id = await newAssistant(suite.alice);
      const [kept, later] = [
        await newTool(suite.alice, 'kept'),
        await newTool(suite.alice, 'later'),
      ];
      await http()
        .post(`/tool/attach/${id}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [kept] })
        .expect(200);
      const v1Details = (await details(suite.alice, id).expect(200)).body.data;
      await publish(suite.alice, id, {}).expect(200);

      await update(suite.alice, id, { assistant_prompt: 'Version two', assistant_name: 'Renamed' });
      await http()
        .post(`/tool/attach/${id}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [later] })
        .expect(200);
      await http()
        .post(`/tool/detach/${id}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [kept] })
        .expect(200);
      // A tool edited after publishing: the version keeps the definition it had.
      await http()
        .patch(`/tool/update/${kept}`)
        .set(suite.alice.auth)
        .send({ tool_description: 'Changed later.' })
        .expect(200);

      const v1 = await details(suite.alice, id, { version: 1 }).expect(200);
      expect(v1.body.data).toEqual(v1Details);
      expect(v1.body.data.assistant_tts_config.api_key).not.toContain(TTS_KEY);
      const working = await details(suite.alice, id).expect(200);
      expect(working.body.data).toMatchObject({
        assistant_prompt: 'Version two',
        assistant_name: 'Renamed',
        tool_ids: [later],
      });

      const runtimeV1 = await http()
        .get(`/assistant/runtime/${id}`)
        .query({ version: 1 })
        .set(suite.alice.auth)
        .expect(200);
      expect(runtimeV1.body.data).toMatchObject({
        assistant_prompt: 'Version one for {{context.name}}',
        assistant_name: 'Front desk',
        assistant_tts_config: { api_key: TTS_KEY },
        tool_bindings: [{ name: 'kept', tool_id: kept, tool_execution_type: 'static_return' }],
      });
      expect(runtimeV1.body.data.tools).toEqual([
        expect.objectContaining({
          type: 'function',
          function: expect.objectContaining({ name: 'kept', description: 'The kept tool.' }),
        }),
      ]);
      const runtimeNow = await http()
        .get(`/assistant/runtime/${id}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(runtimeNow.body.data).toMatchObject({
        assistant_prompt: 'Version two',
        tool_bindings: [{ name: 'later', tool_id: later }],
      });
    });

    it('is 404 for a version that does not exist or is not yours, 400 for a bad number', async () => {
      const id = await newAssistant(suite.alice);
      await publish(suite.alice, id, {}).expect(200);
      await details(suite.alice, id, { version: 2 }).expect(404);
      await details(suite.bob, id, { version: 1 }).expect(404);
      await http()
        .get(`/assistant/runtime/${id}`)
        .query({ version: 2 })
        .set(suite.alice.auth)
        .expect(404);
      for (const version of ['0', '-1', '1.5', 'abc', '2147483648']) {
        const res = await details(suite.alice, id, { version }).expect(400);
        expect(new Set(res.body.data.errors.map((e: { field: string }) => e.field))).toEqual(
          new Set(['version']),
        );
        await http()
          .get(`/assistant/runtime/${id}`)
          .query({ version })
          .set(suite.alice.auth)
          .expect(400);
      }
    });
  });

  describe('pinned inbound mappings', () => {
    it('assign and update take assistant_version, which must exist', async () => {
      const id = await newAssistant(suite.alice);
      await publish(suite.alice, id, {}).expect(200);
      await publish(suite.alice, id, {}).expect(200);
      const pinned = await assign(suite.alice, { assistant_id: id, assistant_version: 1 }).expect(
        200,
      );
      expect(pinned.body.data.assistant_version).toBe(1);
      const inboundId = pinned.body.data.inbound_id as string;
      const read = await http()
        .get(`/inbound/details/${inboundId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(read.body.data.assistant_version).toBe(1);

      expect(
        (await assign(suite.alice, { assistant_id: id }).expect(200)).body.data.assistant_version,
      ).toBeNull();
      expect(
        (await assign(suite.alice, { assistant_id: id, assistant_version: null }).expect(200)).body
          .data.assistant_version,
      ).toBeNull();
      await assign(suite.alice, { assistant_id: id, assistant_version: 3 }).expect(404);
      await assign(suite.bob, { assistant_id: id, assistant_version: 1 }).expect(404);
      for (const bad of [0, -1, 1.5, '1', true]) {
        const res = await assign(suite.alice, { assistant_id: id, assistant_version: bad }).expect(
          400,
        );
        expect(new Set(res.body.data.errors.map((e: { field: string }) => e.field))).toEqual(
          new Set(['assistant_version']),
        );
      }

      let res = await updateMapping(suite.alice, inboundId, { assistant_version: 2 }).expect(200);
      expect(res.body.data.assistant_version).toBe(2);
      await updateMapping(suite.alice, inboundId, { assistant_version: 9 }).expect(404);
      res = await updateMapping(suite.alice, inboundId, { assistant_version: null }).expect(200);
      expect(res.body.data.assistant_version).toBeNull();
      await updateMapping(suite.alice, inboundId, { assistant_version: 1 }).expect(200);

      // Another assistant starts on its working copy unless a version of it is named too.
      const other = await newAssistant(suite.alice);
      res = await updateMapping(suite.alice, inboundId, { assistant_id: other }).expect(200);
      expect(res.body.data).toMatchObject({ assistant_id: other, assistant_version: null });
      await updateMapping(suite.alice, inboundId, {
        assistant_id: id,
        assistant_version: 3,
      }).expect(404);
      res = await updateMapping(suite.alice, inboundId, {
        assistant_id: id,
        assistant_version: 2,
      }).expect(200);
      expect(res.body.data).toMatchObject({ assistant_id: id, assistant_version: 2 });
      await updateMapping(suite.alice, inboundId, {
        assistant_id: null,
        assistant_version: 1,
      }).expect(404);
    });

    it('a pinned lookup renders the published version, unchanged by later updates; the log records it', async () => {
      suite.server.respond('/pin', { body: { context: { name: 'Asha' } } });
      const id = await newAssistant(suite.alice);
      const strategyId = await newStrategy(suite.alice, '/pin');
      await publish(suite.alice, id, { note: 'first' }).expect(200);
      const pinned = await assign(suite.alice, {
        assistant_id: id,
        assistant_version: 1,
        inbound_context_strategy_id: strategyId,
      }).expect(200);
      const working = await assign(suite.alice, {
        assistant_id: id,
        inbound_context_strategy_id: strategyId,
      }).expect(200);

      await update(suite.alice, id, {
        assistant_prompt: 'Version two for {{context.name}}',
        assistant_start_instruction: 'Hi {{context.name}}, v2',
        assistant_name: 'Renamed',
      });

      const room = `room-${randomUUID()}`;
      const fromPinned = await client.lookup(
        { room_name: room, inbound_id: pinned.body.data.inbound_id as string },
        { waitMs: 15_000 },
      );
      expect(fromPinned).toMatchObject({
        status: 'success',
        assistant_id: id,
        assistant_name: 'Front desk',
        assistant_version: 1,
        prompt: 'Version one for Asha',
        start_instruction: 'Hello Asha, v1',
      });
      const [received] = suite.server.requestsTo('/pin').slice(-1);
      expect(received.json).toMatchObject({ assistant_name: 'Front desk', room_name: room });

      const fromWorking = await client.lookup(
        { room_name: `room-${randomUUID()}`, inbound_id: working.body.data.inbound_id as string },
        { waitMs: 15_000 },
      );
      expect(fromWorking).toMatchObject({
        status: 'success',
        assistant_name: 'Renamed',
        assistant_version: null,
        prompt: 'Version two for Asha',
        start_instruction: 'Hi Asha, v2',
      });

      const logs = await http()
        .get('/logs')
        .query({ log_type: 'inbound_context_lookup', room_name: room })
        .set(suite.alice.auth)
        .expect(200);
      expect(logs.body.data.logs[0].request_data).toMatchObject({ assistant_version: 1 });
    });

    it('a pinned mapping without a strategy is skipped with the version rendered', async () => {
      const id = await newAssistant(suite.alice);
      await publish(suite.alice, id, {}).expect(200);
      const pinned = await assign(suite.alice, { assistant_id: id, assistant_version: 1 }).expect(
        200,
      );
      await update(suite.alice, id, { assistant_start_instruction: 'changed' });
      const result = await client.lookup(
        { room_name: `room-${randomUUID()}`, inbound_id: pinned.body.data.inbound_id as string },
        { waitMs: 15_000 },
      );
      expect(result).toMatchObject({
        status: 'skipped',
        assistant_version: 1,
        start_instruction: 'Hello , v1',
      });
    });
  });

  it('versions are deleted with their assistant and pins are cleared', async () => {
    const id = await newAssistant(suite.alice);
    await publish(suite.alice, id, {}).expect(200);
    await publish(suite.alice, id, {}).expect(200);
    const mapping = await assign(suite.alice, { assistant_id: id, assistant_version: 2 }).expect(
      200,
    );
    await http().delete(`/assistant/delete/${id}`).set(suite.alice.auth).expect(200);
    expect(
      await suite.ctx.dataSource
        .getRepository(AssistantVersionEntity)
        .countBy({ assistant_id: id }),
    ).toBe(0);
    const stored = await suite.ctx.dataSource
      .getRepository(InboundMappingEntity)
      .findOneByOrFail({ inbound_id: mapping.body.data.inbound_id as string });
    expect(stored).toMatchObject({ assistant_id: null, assistant_version: null });
    await versions(suite.alice, id).expect(404);
    await details(suite.alice, id, { version: 1 }).expect(404);
  });
});
