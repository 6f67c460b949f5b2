import { randomUUID } from 'node:crypto';
import { ActivityLogEntity } from '../../../src/activity-log/activity-log.entity';
import { InboundMappingEntity } from '../../../src/inbound-context/inbound-mapping.entity';
import { AssistantToolEntity } from '../../../src/assistant/assistant-tool.entity';
import type { Envelope } from '../../../src/common/envelope/envelope';
import { INTERACTION_DEFAULTS } from '../../fixtures/assistant';
import { ISO, UUID } from '../../fixtures/formats';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const TTS_KEY = 'sk_cartesia_e2e_secret_0123456789';
const SARVAM_KEY = 'sarvam_e2e_secret_abcdefghijkl';
const GEMINI_KEY = 'AIza_gemini_e2e_secret_zyxwvutsrq';

type Details = Record<string, unknown> & {
  assistant_id: string;
  assistant_interaction_config: Record<string, unknown>;
  assistant_tts_config: Record<string, unknown> | null;
  assistant_llm_config: Record<string, unknown> | null;
  tool_ids: string[];
  created_at: string;
  updated_at: string;
};

const pipelineBody = (over: Record<string, unknown> = {}) => ({
  assistant_name: 'Support line',
  assistant_description: 'Answers billing questions',
  assistant_prompt: 'You are a friendly support agent.',
  assistant_tts_model: 'cartesia',
  assistant_tts_config: { voice_id: 'voice-1', api_key: TTS_KEY },
  ...over,
});

const realtimeBody = (over: Record<string, unknown> = {}) => ({
  assistant_name: 'Realtime concierge',
  assistant_description: 'Books tables',
  assistant_prompt: 'You are concise.',
  assistant_llm_mode: 'realtime',
  assistant_llm_config: { api_key: GEMINI_KEY },
  ...over,
});

describe('Assistants (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });
  /** Every raw response body of this file, checked for secrets at the end. */
  const bodies: string[] = [];

  async function call(
    user: TestUser | null,
    method: 'get' | 'post' | 'patch' | 'delete',
    path: string,
    body?: unknown,
  ): Promise<{
    status: number;
    body: Envelope<Details & { errors: { field: string; message: string }[] }>;
    text: string;
  }> {
    let req = suite.ctx.http()[method](path);
    if (user) req = req.set(user.auth);
    const res = body === undefined ? await req : await req.send(body as object);
    bodies.push(res.text);
    return {
      status: res.status,
      body: res.body as Envelope<Details & { errors: { field: string; message: string }[] }>,
      text: res.text,
    };
  }

  async function create(user: TestUser, body: Record<string, unknown>): Promise<string> {
    const res = await call(user, 'post', '/assistant/create', body);
    expect(res.status).toBe(200);
    return (res.body.data as unknown as { assistant_id: string }).assistant_id;
  }

  const details = async (user: TestUser, id: string): Promise<Details> => {
    const res = await call(user, 'get', `/assistant/details/${id}`);
    expect(res.status).toBe(200);
    return res.body.data;
  };

  describe('POST /assistant/create', () => {
    it('creates a pipeline assistant: 200 with {assistant_id, assistant_name}', async () => {
      const res = await call(suite.alice, 'post', '/assistant/create', pipelineBody());
      expect(res.status).toBe(200);
      expect(res.body.success).toBe(true);
      expect(res.body.message).toBe('Assistant created');
      expect(Object.keys(res.body.data).sort()).toEqual(['assistant_id', 'assistant_name']);
      expect(res.body.data).toEqual({
        assistant_id: expect.stringMatching(UUID),
        assistant_name: 'Support line',
      });
    });

    it('fills every default, visible on details', async () => {
      const id = await create(suite.alice, pipelineBody());
      const data = await details(suite.alice, id);
      expect(data).toEqual({
        assistant_id: id,
        assistant_name: 'Support line',
        assistant_description: 'Answers billing questions',
        assistant_prompt: 'You are a friendly support agent.',
        assistant_llm_mode: 'pipeline',
        assistant_start_instruction: null,
        assistant_interaction_config: INTERACTION_DEFAULTS,
        assistant_end_call_enabled: false,
        assistant_end_call_trigger_phrase: null,
        assistant_end_call_agent_message: null,
        assistant_end_call_url: null,
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'voice-1', api_key: `****${TTS_KEY.slice(-4)}` },
        assistant_llm_config: null,
        tool_ids: [],
        created_at: expect.stringMatching(ISO),
        updated_at: expect.stringMatching(ISO),
      });
    });

    it('defaults sarvam target_language_code to bn-IN', async () => {
      const id = await create(
        suite.alice,
        pipelineBody({
          assistant_tts_model: 'sarvam',
          assistant_tts_config: { speaker: 'anushka' },
        }),
      );
      expect((await details(suite.alice, id)).assistant_tts_config).toEqual({
        speaker: 'anushka',
        target_language_code: 'bn-IN',
      });
    });

    it('realtime: llm defaults, filler_words stored false even when sent true, TTS accepted', async () => {
      const id = await create(
        suite.alice,
        realtimeBody({
          assistant_interaction_config: { filler_words: true, silence_max_reprompts: 0 },
          assistant_tts_model: 'elevenlabs',
          assistant_tts_config: { voice_id: 'eleven-1' },
        }),
      );
      const data = await details(suite.alice, id);
      expect(data.assistant_llm_mode).toBe('realtime');
      expect(data.assistant_llm_config).toEqual({
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Puck',
        api_key: `****${GEMINI_KEY.slice(-4)}`,
      });
      expect(data.assistant_interaction_config).toEqual({
        speaks_first: true,
        filler_words: false,
        silence_reprompts: false,
        silence_reprompt_interval: 10,
        silence_max_reprompts: 0,
      });
      expect(data.assistant_tts_model).toBe('elevenlabs');
    });

    it('realtime with an empty llm config is valid', async () => {
      const res = await call(
        suite.alice,
        'post',
        '/assistant/create',
        realtimeBody({ assistant_llm_config: {} }),
      );
      expect(res.status).toBe(200);
    });

    it.each([
      [
        'missing tts in pipeline',
        pipelineBody({ assistant_tts_model: undefined, assistant_tts_config: undefined }),
        ['assistant_tts_config', 'assistant_tts_model'],
      ],
      [
        'missing llm config in realtime',
        realtimeBody({ assistant_llm_config: undefined }),
        ['assistant_llm_config'],
      ],
      ['name of 101', pipelineBody({ assistant_name: 'n'.repeat(101) }), ['assistant_name']],
      [
        'start instruction of 201',
        pipelineBody({ assistant_start_instruction: 's'.repeat(201) }),
        ['assistant_start_instruction'],
      ],
      [
        'string boolean',
        pipelineBody({ assistant_interaction_config: { speaks_first: 'true' } }),
        ['assistant_interaction_config.speaks_first'],
      ],
      [
        'string number',
        pipelineBody({ assistant_interaction_config: { silence_max_reprompts: '5' } }),
        ['assistant_interaction_config.silence_max_reprompts'],
      ],
      [
        'interval 60.01',
        pipelineBody({ assistant_interaction_config: { silence_reprompt_interval: 60.01 } }),
        ['assistant_interaction_config.silence_reprompt_interval'],
      ],
      [
        'end call without texts',
        pipelineBody({ assistant_end_call_enabled: true }),
        ['assistant_end_call_agent_message', 'assistant_end_call_trigger_phrase'],
      ],
      [
        'sarvam without speaker',
        pipelineBody({ assistant_tts_model: 'sarvam', assistant_tts_config: { voice_id: 'v' } }),
        ['assistant_tts_config.speaker', 'assistant_tts_config.voice_id'],
      ],
      [
        'unknown key in tts config',
        pipelineBody({ assistant_tts_config: { voice_id: 'v', speed: 2 } }),
        ['assistant_tts_config.speed'],
      ],
      ['unknown top-level field', pipelineBody({ assistant_color: 'red' }), ['assistant_color']],
      [
        'bad provider',
        realtimeBody({ assistant_llm_config: { provider: 'openai' } }),
        ['assistant_llm_config.provider'],
      ],
      [
        'bad end-call url',
        pipelineBody({ assistant_end_call_url: 'ftp://x.example.com' }),
        ['assistant_end_call_url'],
      ],
    ])('400 for %s, naming the fields', async (_, body, fields) => {
      const res = await call(suite.alice, 'post', '/assistant/create', body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      const errors = (res.body.data as unknown as { errors: { field: string }[] }).errors;
      expect([...new Set(errors.map((e) => e.field))].sort()).toEqual(fields);
    });

    it('401 without an API key, and with a wrong one', async () => {
      expect((await call(null, 'post', '/assistant/create', pipelineBody())).status).toBe(401);
      const res = await suite.ctx
        .http()
        .get('/assistant/list')
        .set('Authorization', 'Bearer not-a-real-key');
      expect(res.status).toBe(401);
      expect((await call(null, 'get', '/assistant/list')).status).toBe(401);
    });
  });

  describe('GET /assistant/list', () => {
    it("lists only the caller's assistants, newest first, with total and paging", async () => {
      const carol = await suite.ctx.newUser();
      const ids: string[] = [];
      for (const name of ['first', 'second', 'third'])
        ids.push(await create(carol, pipelineBody({ assistant_name: name })));
      await create(suite.bob, pipelineBody({ assistant_name: 'bob-only' }));

      const all = await call(carol, 'get', '/assistant/list');
      expect(all.status).toBe(200);
      const page = all.body.data as unknown as {
        items: Details[];
        total: number;
        page: number;
        limit: number;
      };
      expect(page.total).toBe(3);
      expect(page.page).toBe(1);
      expect(page.limit).toBe(50);
      expect(page.items.map((i) => i.assistant_name)).toEqual(['third', 'second', 'first']);
      expect(page.items[0].assistant_interaction_config.silence_reprompt_interval).toBe(10);

      const second = await call(carol, 'get', '/assistant/list?page=2&limit=2');
      const p2 = second.body.data as unknown as {
        items: Details[];
        total: number;
        page: number;
        limit: number;
      };
      expect(p2).toMatchObject({ total: 3, page: 2, limit: 2 });
      expect(p2.items.map((i) => i.assistant_id)).toEqual([ids[0]]);

      // A page past the last assistant still reports how many there are.
      const past = await call(carol, 'get', '/assistant/list?page=5&limit=2');
      expect(past.body.data).toEqual({ items: [], total: 3, page: 5, limit: 2 });
      const empty = await call(await suite.ctx.newUser(), 'get', '/assistant/list');
      expect(empty.body.data).toEqual({ items: [], total: 0, page: 1, limit: 50 });

      expect((await call(carol, 'get', '/assistant/list?limit=101')).status).toBe(400);
      expect((await call(carol, 'get', '/assistant/list?page=0')).status).toBe(400);
    });
  });

  describe('GET /assistant/details/:assistant_id', () => {
    it("404 for another user's assistant and for an unknown id; 400 for a malformed id", async () => {
      const id = await create(suite.alice, pipelineBody());
      const foreign = await call(suite.bob, 'get', `/assistant/details/${id}`);
      expect(foreign.status).toBe(404);
      expect(foreign.body.success).toBe(false);
      expect((await call(suite.alice, 'get', `/assistant/details/${randomUUID()}`)).status).toBe(
        404,
      );
      expect((await call(suite.alice, 'get', '/assistant/details/not-a-uuid')).status).toBe(400);
    });
  });

  describe('PATCH /assistant/update/:assistant_id', () => {
    it('merges nested configs key by key and keeps untouched fields', async () => {
      const id = await create(
        suite.alice,
        pipelineBody({
          assistant_start_instruction: 'Hello!',
          assistant_interaction_config: { silence_reprompts: true, silence_max_reprompts: 4 },
          assistant_llm_config: { voice: 'Kore' },
        }),
      );
      const res = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_name: 'Renamed',
        assistant_interaction_config: { silence_reprompt_interval: 7.5 },
        assistant_llm_config: { model: 'gemini-2.5-flash-live' },
      });
      expect(res.status).toBe(200);
      expect(res.body.message).toBe('Assistant updated');
      const data = await details(suite.alice, id);
      expect(data.assistant_name).toBe('Renamed');
      expect(data.assistant_start_instruction).toBe('Hello!');
      expect(data.assistant_interaction_config).toEqual({
        speaks_first: true,
        filler_words: false,
        silence_reprompts: true,
        silence_reprompt_interval: 7.5,
        silence_max_reprompts: 4,
      });
      expect(data.assistant_llm_config).toEqual({
        provider: 'gemini',
        model: 'gemini-2.5-flash-live',
        voice: 'Kore',
      });
      expect(data.assistant_tts_config).toEqual({
        voice_id: 'voice-1',
        api_key: `****${TTS_KEY.slice(-4)}`,
      });
      expect(Date.parse(data.updated_at)).toBeGreaterThanOrEqual(Date.parse(data.created_at));
    });

    it('concurrent updates of different keys both land', async () => {
      const id = await create(suite.alice, pipelineBody());
      const patches = [
        { assistant_interaction_config: { silence_max_reprompts: 5 } },
        { assistant_interaction_config: { silence_reprompt_interval: 3 } },
        { assistant_interaction_config: { speaks_first: false } },
        { assistant_llm_config: { voice: 'Kore' } },
      ];
      const results = await Promise.all(
        patches.map((p) => call(suite.alice, 'patch', `/assistant/update/${id}`, p)),
      );
      expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      const data = await details(suite.alice, id);
      expect(data.assistant_interaction_config).toEqual({
        speaks_first: false,
        filler_words: false,
        silence_reprompts: false,
        silence_reprompt_interval: 3,
        silence_max_reprompts: 5,
      });
      expect(data.assistant_llm_config).toEqual({
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Kore',
      });
    });

    it('a masked api_key keeps the stored key; a new one replaces it', async () => {
      const id = await create(suite.alice, pipelineBody());
      const masked = (await details(suite.alice, id)).assistant_tts_config!.api_key;
      await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_tts_config: { voice_id: 'voice-2', api_key: masked },
      });
      const [row] = await suite.ctx.dataSource.query(
        'SELECT assistant_tts_config FROM assistants WHERE assistant_id = ?',
        [id],
      );
      const stored =
        typeof row.assistant_tts_config === 'string'
          ? JSON.parse(row.assistant_tts_config)
          : row.assistant_tts_config;
      expect(stored).toEqual({ voice_id: 'voice-2', api_key: TTS_KEY });

      await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_tts_config: { api_key: 'short-new' },
      });
      expect((await details(suite.alice, id)).assistant_tts_config).toEqual({
        voice_id: 'voice-2',
        api_key: '****',
      });
    });

    it('changing assistant_tts_model needs a matching config in the same request', async () => {
      const id = await create(suite.alice, pipelineBody());
      const without = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_tts_model: 'sarvam',
      });
      expect(without.status).toBe(400);
      expect((without.body.data as unknown as { errors: unknown[] }).errors).toEqual([
        {
          field: 'assistant_tts_config',
          message: 'assistant_tts_config is required when assistant_tts_model changes',
        },
      ]);
      const mismatched = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_tts_model: 'sarvam',
        assistant_tts_config: { voice_id: 'v' },
      });
      expect(mismatched.status).toBe(400);
      const ok = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_tts_model: 'sarvam',
        assistant_tts_config: { speaker: 'anushka', api_key: SARVAM_KEY },
      });
      expect(ok.status).toBe(200);
      expect(ok.body.data.assistant_tts_config).toEqual({
        speaker: 'anushka',
        target_language_code: 'bn-IN',
        api_key: `****${SARVAM_KEY.slice(-4)}`,
      });
    });

    it('switching to realtime without an llm config on record is 400; with one, filler_words turns off', async () => {
      const id = await create(
        suite.alice,
        pipelineBody({ assistant_interaction_config: { filler_words: true } }),
      );
      const bad = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_llm_mode: 'realtime',
      });
      expect(bad.status).toBe(400);
      expect((bad.body.data as unknown as { errors: unknown[] }).errors).toEqual([
        {
          field: 'assistant_llm_config',
          message: 'assistant_llm_config is required in realtime mode',
        },
      ]);
      expect((await details(suite.alice, id)).assistant_llm_mode).toBe('pipeline');

      const ok = await call(suite.alice, 'patch', `/assistant/update/${id}`, {
        assistant_llm_mode: 'realtime',
        assistant_llm_config: {},
      });
      expect(ok.status).toBe(200);
      const data = await details(suite.alice, id);
      expect(data.assistant_interaction_config.filler_words).toBe(false);
      expect(data.assistant_llm_config).toEqual({
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Puck',
      });
    });

    it('validates what is sent and the merged result; unknown fields are 400', async () => {
      const id = await create(suite.alice, pipelineBody());
      for (const body of [
        { assistant_interaction_config: { silence_max_reprompts: 6 } },
        { assistant_end_call_enabled: true },
        { assistant_name: '' },
        { assistant_id: randomUUID() },
        { assistant_tts_config: { pitch: 1 } },
      ]) {
        expect((await call(suite.alice, 'patch', `/assistant/update/${id}`, body)).status).toBe(
          400,
        );
      }
    });

    it("404 for another user's assistant, 400 for a malformed id", async () => {
      const id = await create(suite.alice, pipelineBody());
      expect(
        (await call(suite.bob, 'patch', `/assistant/update/${id}`, { assistant_name: 'x' })).status,
      ).toBe(404);
      expect((await details(suite.alice, id)).assistant_name).toBe('Support line');
      expect(
        (await call(suite.alice, 'patch', '/assistant/update/123', { assistant_name: 'x' })).status,
      ).toBe(400);
    });
  });

  describe('DELETE /assistant/delete/:assistant_id', () => {
    it('removes the assistant and its tool attachments, detaches inbound mappings, keeps activity logs', async () => {
      const id = await create(suite.alice, pipelineBody());
      const other = await create(suite.alice, pipelineBody({ assistant_name: 'kept' }));
      const toolId = randomUUID();
      const inboundId = randomUUID();
      const number = `9${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(0, 15);
      await suite.ctx.dataSource.getRepository(AssistantToolEntity).insert([
        { assistant_id: id, tool_id: toolId },
        { assistant_id: other, tool_id: toolId },
      ]);
      await suite.ctx.dataSource.getRepository(InboundMappingEntity).insert({
        inbound_id: inboundId,
        user_id: suite.alice.userId,
        assistant_id: id,
        inbound_context_strategy_id: null,
        service: 'exotel',
        inbound_config: { phone_number: `+${number}` },
        phone_number_normalized: number,
        is_active: true,
        active_phone_number: number,
      });
      await suite.ctx.dataSource.getRepository(ActivityLogEntity).insert({
        user_id: suite.alice.userId,
        log_type: 'tool_call',
        status: 'success',
        assistant_id: id,
        room_name: `room-${id}`,
        timestamp: new Date(),
        message: 'ok',
        request_data: {},
        response_data: {},
        latency_ms: 5,
      });
      expect((await details(suite.alice, id)).tool_ids).toEqual([toolId]);

      expect((await call(suite.bob, 'delete', `/assistant/delete/${id}`)).status).toBe(404);
      const res = await call(suite.alice, 'delete', `/assistant/delete/${id}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Assistant deleted',
        data: { assistant_id: id },
      });

      expect((await call(suite.alice, 'get', `/assistant/details/${id}`)).status).toBe(404);
      expect((await call(suite.alice, 'delete', `/assistant/delete/${id}`)).status).toBe(404);
      expect(
        await suite.ctx.dataSource.getRepository(AssistantToolEntity).findBy({ assistant_id: id }),
      ).toEqual([]);
      expect((await details(suite.alice, other)).tool_ids).toEqual([toolId]);
      const mapping = await suite.ctx.dataSource
        .getRepository(InboundMappingEntity)
        .findOneByOrFail({ inbound_id: inboundId });
      expect(mapping.assistant_id).toBeNull();
      expect(mapping.is_active).toBe(true);
      expect(
        await suite.ctx.dataSource.getRepository(ActivityLogEntity).countBy({ assistant_id: id }),
      ).toBe(1);
    });

    it('400 for a malformed id', async () => {
      expect((await call(suite.alice, 'delete', '/assistant/delete/nope')).status).toBe(400);
    });
  });

  it('never returns a provider api_key in clear', async () => {
    const id = await create(
      suite.alice,
      pipelineBody({ assistant_llm_config: { api_key: GEMINI_KEY } }),
    );
    await call(suite.alice, 'get', `/assistant/details/${id}`);
    await call(suite.alice, 'get', '/assistant/list?limit=100');
    await call(suite.alice, 'patch', `/assistant/update/${id}`, { assistant_name: 'again' });
    await call(
      suite.alice,
      'post',
      '/assistant/create',
      pipelineBody({ assistant_tts_config: { voice_id: 'v', api_key: TTS_KEY, bad: 1 } }),
    );
    expect(bodies.length).toBeGreaterThan(20);
    for (const text of bodies) {
      expect(text).not.toContain(TTS_KEY);
      expect(text).not.toContain(SARVAM_KEY);
      expect(text).not.toContain(GEMINI_KEY);
    }
  });
});
