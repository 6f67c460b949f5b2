import { INTERACTION_DEFAULTS } from '../../fixtures/assistant';
import { BOTH_SCOPES } from '../../fixtures/user';
import { appSuite, type TestUser } from '../../utils/create-test-app';

const TTS_KEY = 'cartesia_live_key_runtime_e2e_0123456789';
const LLM_KEY = 'gemini_live_key_runtime_e2e_0123456789';
const HEADER_SECRET = 'Bearer tool_header_secret_runtime_e2e';

describe('Assistant runtime view (e2e)', () => {
  const suite = appSuite({
    users: ['alice', 'bob'],
    scopes: { alice: BOTH_SCOPES, bob: BOTH_SCOPES },
  });
  async function post(
    user: TestUser,
    path: string,
    body: Record<string, unknown>,
  ): Promise<Record<string, unknown>> {
    const res = await suite.ctx.http().post(path).set(user.auth).send(body);
    expect(res.status).toBe(200);
    return res.body.data as Record<string, unknown>;
  }

  const runtime = (user: TestUser, id: string) =>
    suite.ctx.http().get(`/assistant/runtime/${id}`).set(user.auth);

  it('returns the effective pipeline config with keys in clear and the attached tools as functions', async () => {
    const { assistant_id: assistantId } = await post(suite.alice, '/assistant/create', {
      assistant_name: 'Orders',
      assistant_description: 'Order desk',
      assistant_prompt: 'You help with orders.',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'voice-1', api_key: TTS_KEY },
      assistant_end_call_enabled: true,
      assistant_end_call_trigger_phrase: 'that is all',
      assistant_end_call_agent_message: 'Goodbye!',
    });
    const { tool_id: webhookId } = await post(suite.alice, '/tool/create', {
      tool_name: 'get_order_status',
      tool_description: 'Looks up an order.',
      tool_parameters: [
        { name: 'order_id', type: 'string', description: 'Order number' },
        { name: 'speed', type: 'string', required: false, enum: ['standard', 'express'] },
        { name: 'quantity', type: 'number' },
        { name: 'gift', type: 'boolean', required: false },
        { name: 'address', type: 'object' },
        { name: 'items', type: 'array', description: 'Line items' },
      ],
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: 'https://api.example.com/orders',
        headers: { Authorization: HEADER_SECRET },
      },
    });
    const { tool_id: staticId } = await post(suite.alice, '/tool/create', {
      tool_name: 'opening_hours',
      tool_description: 'Returns the opening hours.',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: '9-5' },
    });
    const { tool_id: unattached } = await post(suite.alice, '/tool/create', {
      tool_name: 'not_attached',
      tool_description: 'Never attached.',
      tool_execution_type: 'static_return',
      tool_execution_config: { value: 1 },
    });
    expect(unattached).toEqual(expect.any(String));
    const attached = await post(suite.alice, `/tool/attach/${String(assistantId)}`, {
      tool_ids: [webhookId, staticId],
    });

    const res = await runtime(suite.alice, String(assistantId));
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(HEADER_SECRET);
    const data = res.body.data;
    expect(data).toMatchObject({
      assistant_id: assistantId,
      assistant_name: 'Orders',
      assistant_prompt: 'You help with orders.',
      assistant_llm_mode: 'pipeline',
      assistant_interaction_config: INTERACTION_DEFAULTS,
      assistant_end_call_enabled: true,
      assistant_end_call_trigger_phrase: 'that is all',
      assistant_end_call_agent_message: 'Goodbye!',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'voice-1', api_key: TTS_KEY },
      assistant_llm_config: {
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Puck',
      },
    });
    expect(data).not.toHaveProperty('user_id');

    // A tool with no side_effect set is `none`: nothing to hold until the caller's turn ends.
    const safety = { side_effect: 'none', defer_until_eot: false };
    const webhookFunction = {
      ...safety,
      type: 'function',
      function: {
        name: 'get_order_status',
        description: 'Looks up an order.',
        parameters: {
          type: 'object',
          properties: {
            order_id: { type: 'string', description: 'Order number' },
            speed: { type: 'string', enum: ['standard', 'express'] },
            quantity: { type: 'number' },
            gift: { type: 'boolean' },
            address: { type: 'object' },
            items: { type: 'array', description: 'Line items', items: {} },
          },
          required: ['order_id', 'quantity', 'address', 'items'],
        },
      },
    };
    const staticFunction = {
      ...safety,
      type: 'function',
      function: {
        name: 'opening_hours',
        description: 'Returns the opening hours.',
        parameters: { type: 'object', properties: {}, required: [] },
      },
    };
    const byId: Record<string, unknown> = {
      [String(webhookId)]: webhookFunction,
      [String(staticId)]: staticFunction,
    };
    // Same order as the assistant's attached tool ids, then the built-in end_call.
    expect(data.tools).toEqual([
      ...(attached.tool_ids as string[]).map((id) => byId[id]),
      {
        ...safety,
        type: 'function',
        function: {
          name: 'end_call',
          description: expect.stringContaining('"that is all"'),
          parameters: { type: 'object', properties: {}, required: [] },
        },
      },
    ]);
    expect(data.tool_bindings).toEqual(
      (attached.tool_ids as string[]).map((id) => ({
        name: id === webhookId ? 'get_order_status' : 'opening_hours',
        tool_id: id,
        tool_execution_type: id === webhookId ? 'webhook' : 'static_return',
      })),
    );

    // The public details keep the keys masked; the runtime view follows detach at once.
    const details = await suite.ctx
      .http()
      .get(`/assistant/details/${String(assistantId)}`)
      .set(suite.alice.auth)
      .expect(200);
    expect(details.text).not.toContain(TTS_KEY);
    await post(suite.alice, `/tool/detach/${String(assistantId)}`, { tool_ids: [webhookId] });
    const after = await runtime(suite.alice, String(assistantId)).expect(200);
    expect(
      after.body.data.tools.map((t: { function: { name: string } }) => t.function.name),
    ).toEqual(['opening_hours', 'end_call']);
  });

  it('applies realtime overrides: no TTS, filler words off, the assistant’s realtime key in clear, no end_call when disabled', async () => {
    const { assistant_id: assistantId } = await post(suite.alice, '/assistant/create', {
      assistant_name: 'Live',
      assistant_description: 'Realtime',
      assistant_prompt: 'Be brief.',
      assistant_llm_mode: 'realtime',
      assistant_interaction_config: { filler_words: true },
      assistant_llm_config: { voice: 'Kore', api_key: LLM_KEY },
    });
    const res = await runtime(suite.alice, String(assistantId)).expect(200);
    expect(res.body.data).toMatchObject({
      assistant_llm_mode: 'realtime',
      assistant_tts_model: null,
      assistant_tts_config: null,
      assistant_llm_config: {
        provider: 'gemini',
        model: 'gemini-3.1-flash-live-preview',
        voice: 'Kore',
        api_key: LLM_KEY,
      },
      tools: [],
      tool_bindings: [],
    });
    expect(res.body.data.assistant_interaction_config.filler_words).toBe(false);
  });

  it('is 404 for another user’s assistant and 400 for a malformed id', async () => {
    const { assistant_id: assistantId } = await post(suite.alice, '/assistant/create', {
      assistant_name: 'Private',
      assistant_description: 'd',
      assistant_prompt: 'p',
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'v', api_key: TTS_KEY },
    });
    const res = await runtime(suite.bob, String(assistantId));
    expect(res.status).toBe(404);
    expect(res.text).not.toContain(TTS_KEY);
    expect(res.body).toEqual({
      success: false,
      message: 'Assistant not found',
      data: { code: 'not_found' },
    });
    await runtime(suite.alice, 'nope').expect(400);
    await suite.ctx
      .http()
      .get(`/assistant/runtime/${String(assistantId)}`)
      .expect(401);
  });

  it('is documented as sensitive in the OpenAPI document', async () => {
    const doc = await suite.ctx.http().get('/docs-json').expect(200);
    const op = doc.body.paths['/assistant/runtime/{assistant_id}'].get;
    expect(op.summary).toMatch(/^SENSITIVE/);
    expect(op.description).toContain('in clear');
  });
});
