import {
  CREDENTIAL_HEADER_NAMES,
  CREDENTIAL_WORD_HEADER_NAMES,
  PLAIN_HEADER_NAMES,
} from '../../fixtures/header-names';
import { appSuite } from '../../utils/create-test-app';

/** Plain headers that stay readable, with values that look like nothing secret. */
const PLAIN_HEADERS = Object.fromEntries(
  PLAIN_HEADER_NAMES.map((name, i) => [name, ['acme', 'req-42', 'IN'][i]]),
);
const CREDENTIAL_VALUES = {
  'X-One': 'Bearer plain-name-bearer-value',
  'X-Two': 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl',
  'X-Three': 'sk-proj-abcdefghijklmnop0123',
  'X-Four': 'f3a9c2e1b7d84a6f9e0c1b2a3d4e5f60',
};
const URL_SECRET = 'url-query-secret-0123';

describe('Masking of headers and URL credentials (e2e)', () => {
  const suite = appSuite({ users: ['user'], server: true });

  beforeAll(() => {
    suite.server.respond('/lookup', { status: 200, body: { context: { name: 'Ada' } } });
  });

  const headers = {
    ...Object.fromEntries(CREDENTIAL_HEADER_NAMES.map((name, i) => [name, `value-${i}`])),
    ...Object.fromEntries(CREDENTIAL_WORD_HEADER_NAMES.map((name, i) => [name, `${1000 + i}`])),
    ...CREDENTIAL_VALUES,
    ...PLAIN_HEADERS,
  };
  const expectMasked = (shown: Record<string, string>) =>
    expect(shown).toEqual({
      ...Object.fromEntries(Object.keys(headers).map((name) => [name, '****'])),
      ...PLAIN_HEADERS,
    });

  it('masks credential-like header names and values on strategies and tools; plain values stay readable', async () => {
    const strategy = await suite.ctx
      .http()
      .post('/inbound_context_strategy/create')
      .set(suite.user.auth)
      .send({
        strategy_name: 'Masked',
        strategy_type: 'webhook',
        strategy_config: { url: suite.server.url('/lookup'), headers },
      })
      .expect(200);
    expectMasked(strategy.body.data.strategy_config.headers);
    const details = await suite.ctx
      .http()
      .get(`/inbound_context_strategy/details/${strategy.body.data.strategy_id}`)
      .set(suite.user.auth)
      .expect(200);
    expectMasked(details.body.data.strategy_config.headers);

    const tool = await suite.ctx
      .http()
      .post('/tool/create')
      .set(suite.user.auth)
      .send({
        tool_name: 'masked_tool',
        tool_description: 'Masked.',
        tool_execution_type: 'webhook',
        tool_execution_config: { url: suite.server.url('/tool'), headers },
      })
      .expect(200);
    const toolDetails = await suite.ctx
      .http()
      .get(`/tool/details/${tool.body.data.tool_id}`)
      .set(suite.user.auth)
      .expect(200);
    expectMasked(toolDetails.body.data.tool_execution_config.headers);
    const list = await suite.ctx.http().get('/tool/list').set(suite.user.auth).expect(200);
    expect(list.text).not.toContain('value-0');
    expect(list.text).not.toContain(CREDENTIAL_VALUES['X-Three']);
    for (const [i] of CREDENTIAL_WORD_HEADER_NAMES.entries())
      expect(list.text).not.toContain(`"${1000 + i}"`);
  });

  it('masks credentials inside URLs on every read, and the **** round trip keeps them', async () => {
    const url = suite.server.url(`/lookup?tenant=acme&token=${URL_SECRET}`);
    const created = await suite.ctx
      .http()
      .post('/inbound_context_strategy/create')
      .set(suite.user.auth)
      .send({ strategy_name: 'Url', strategy_type: 'webhook', strategy_config: { url } })
      .expect(200);
    const id = created.body.data.strategy_id as string;
    const shown = created.body.data.strategy_config.url as string;
    expect(shown).toBe(suite.server.url('/lookup?tenant=acme&token=****'));
    const details = await suite.ctx
      .http()
      .get(`/inbound_context_strategy/details/${id}`)
      .set(suite.user.auth)
      .expect(200);
    expect(details.text).not.toContain(URL_SECRET);

    // The URL read back, sent back with a change elsewhere: the stored token stays.
    const patched = await suite.ctx
      .http()
      .patch(`/inbound_context_strategy/update/${id}`)
      .set(suite.user.auth)
      .send({ strategy_config: { url: shown, timeout_seconds: 3 } })
      .expect(200);
    expect(patched.text).not.toContain(URL_SECRET);
    const test = await suite.ctx
      .http()
      .post(`/inbound_context_strategy/test/${id}`)
      .set(suite.user.auth)
      .send({})
      .expect(200);
    expect(test.text).not.toContain(URL_SECRET);
    expect(suite.server.requests.at(-1)?.path).toBe(`/lookup?tenant=acme&token=${URL_SECRET}`);

    // Another origin with the masked token: 400, the token is never sent there.
    const moved = await suite.ctx
      .http()
      .patch(`/inbound_context_strategy/update/${id}`)
      .set(suite.user.auth)
      .send({ strategy_config: { url: shown.replace('127.0.0.1', 'localhost') } })
      .expect(400);
    expect(moved.body.data.errors).toEqual([
      { field: 'strategy_config.url', message: expect.stringContaining('origin') },
    ]);
  });

  it('masks user:pass@ in tool URLs and end-call URLs', async () => {
    const tool = await suite.ctx
      .http()
      .post('/tool/create')
      .set(suite.user.auth)
      .send({
        tool_name: 'userinfo_tool',
        tool_description: 'Userinfo.',
        tool_execution_type: 'webhook',
        tool_execution_config: {
          url: suite.server.url('/tool').replace('http://', 'http://ada:pw1234@'),
        },
      })
      .expect(200);
    const toolDetails = await suite.ctx
      .http()
      .get(`/tool/details/${tool.body.data.tool_id}`)
      .set(suite.user.auth)
      .expect(200);
    expect(toolDetails.body.data.tool_execution_config.url).toBe(
      suite.server.url('/tool').replace('http://', 'http://****:****@'),
    );
    const assistant = await suite.ctx
      .http()
      .post('/assistant/create')
      .set(suite.user.auth)
      .send({
        assistant_name: 'Masked',
        assistant_description: 'd',
        assistant_prompt: 'p',
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'v', api_key: 'k' },
        assistant_end_call_url: `https://hooks.example.com/end?api_key=${URL_SECRET}`,
      })
      .expect(200);
    const id = assistant.body.data.assistant_id as string;
    const details = await suite.ctx
      .http()
      .get(`/assistant/details/${id}`)
      .set(suite.user.auth)
      .expect(200);
    expect(details.body.data.assistant_end_call_url).toBe(
      'https://hooks.example.com/end?api_key=****',
    );
    await suite.ctx
      .http()
      .patch(`/assistant/update/${id}`)
      .set(suite.user.auth)
      .send({ assistant_end_call_url: 'https://hooks.example.com/end2?api_key=****' })
      .expect(200);
    const row = await suite.ctx.dataSource.query(
      'SELECT assistant_end_call_url FROM assistants WHERE assistant_id = ?',
      [id],
    );
    expect(row[0].assistant_end_call_url).toBe(
      `https://hooks.example.com/end2?api_key=${URL_SECRET}`,
    );
  });
});
