import { gzipSync } from 'node:zlib';
import { AssistantEntity } from '../../../src/assistant/assistant.entity';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite } from '../../utils/create-test-app';
import { toolApi } from '../../api/tool-api';

/** JSON text of `{"a":{"a":...}}` with `levels` objects. */
const nestedJson = (levels: number) => '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1);

/**
 * The request path in front of every handler: what happens to a body before a handler sees it, and
 * which requests never get their body read at all.
 */
describe('Request pipeline (e2e)', () => {
  const suite = appSuite({ users: ['user'] });
  /** `POST path` as a client sends raw JSON, with `headers` (the user's key unless given). */
  const postJson = (path: string, headers: Record<string, string> = suite.user.auth) =>
    suite.ctx.http().post(path).set(headers).set('Content-Type', 'application/json');
  const assistants = () =>
    suite.ctx.dataSource
      .getRepository(AssistantEntity)
      .count({ where: { user_id: suite.user.userId } });

  describe('bodies are read only after authentication', () => {
    it('401s an unauthenticated request with malformed JSON: the body is never parsed', async () => {
      const res = await postJson('/assistant/create', {}).send('{"assistant_name": ');
      expect(res.status).toBe(401);
      expect(res.body).toEqual({
        success: false,
        message: 'Missing or invalid API key',
        data: { code: 'unauthorized' },
      });
    });

    it('401s an unauthenticated body over the size limit (not 413): it is never read into memory', async () => {
      const res = await postJson('/tool/create', {
        Authorization: 'Bearer vac_not_a_real_key',
      }).send(JSON.stringify({ x: 'y'.repeat(2 * 1024 * 1024) }));
      expect(res.status).toBe(401);
    });

    it('401s an operator route with a wrong admin key before reading its body', async () => {
      const res = await postJson('/auth/create-key', {
        Authorization: 'Bearer wrong-admin-key-0123456789',
      }).send('not json at all');
      expect(res.status).toBe(401);
    });

    it('still parses and checks the body of an authenticated request', async () => {
      const res = await postJson('/assistant/create').send('{"assistant_name": ');
      expect(res.status).toBe(422);
      expect(res.body.message).toBe('Request body is not valid JSON');
    });
  });

  describe('nesting depth', () => {
    it('400s a body nested deeper than 64 levels, naming the limit, and writes nothing', async () => {
      const before = await assistants();
      const body = JSON.stringify(assistantBody()).replace(
        /}$/,
        `,"assistant_tts_config_extra":${nestedJson(64)}}`,
      );
      const res = await postJson('/assistant/create').send(body);
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toBe('Request body is nested deeper than 64 levels');
      expect(await assistants()).toBe(before);
    });

    it('400s ~9,000 levels of nesting instead of failing with a 500', async () => {
      const deep = '['.repeat(9000) + ']'.repeat(9000);
      const res = await postJson('/tool/create').send(`{"tool_name":${deep}}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain('64 levels');
    });

    it('lets 64 levels through to the DTO, which names the unknown field instead', async () => {
      const body = JSON.stringify(assistantBody()).replace(/}$/, `,"extra":${nestedJson(63)}}`);
      const res = await postJson('/assistant/create').send(body);
      expect(res.status).toBe(400);
      expect(res.body.message).not.toContain('levels');
      expect(JSON.stringify(res.body.data)).toContain('extra');
    });
  });

  describe('text that is not well-formed Unicode', () => {
    it.each([
      [
        'assistant_tts_config.voice_id',
        '{"voice_id":"voice\\ud800","api_key":"sk_cartesia_pipeline_secret_01234"}',
      ],
      [
        'assistant_tts_config.api_key',
        '{"voice_id":"voice-1","api_key":"sk_\\udfff_secret_0123456789abc"}',
      ],
    ])(
      '400s a lone surrogate in %s, naming the field, and writes nothing',
      async (field, ttsJson) => {
        const before = await assistants();
        const { assistant_tts_config: _omit, ...rest } = assistantBody();
        const body = JSON.stringify(rest).replace(/}$/, `,"assistant_tts_config":${ttsJson}}`);
        const res = await postJson('/assistant/create').send(body);
        expect(res.status).toBe(400);
        expect(res.body.data.errors).toEqual([
          { field, message: expect.stringContaining('well-formed') },
        ]);
        expect(await assistants()).toBe(before);
      },
    );

    it('400s a lone surrogate in a tool URL path on update, and keeps the stored tool', async () => {
      const { tool_id: id } = await toolApi(suite.ctx, suite.user).create({
        tool_name: 'lookup_order',
        tool_description: 'Looks up an order.',
        tool_parameters: [{ name: 'order_id', type: 'string', description: 'Order number' }],
        tool_execution_type: 'webhook',
        tool_execution_config: { url: 'https://api.example.com/orders' },
      });
      const res = await suite.ctx
        .http()
        .patch(`/tool/update/${id}`)
        .set(suite.user.auth)
        .set('Content-Type', 'application/json')
        .send('{"tool_execution_config":{"url":"https://api.example.com/\\ud800"}}');
      expect(res.status).toBe(400);
      expect(res.body.data.errors[0].field).toBe('tool_execution_config.url');
      const after = await suite.ctx
        .http()
        .get(`/tool/details/${id}`)
        .set(suite.user.auth)
        .expect(200);
      expect(after.body.data.tool_execution_config.url).toBe('https://api.example.com/orders');
    });

    it('accepts emoji (surrogate pairs) and stores them as sent', async () => {
      const res = await suite.ctx
        .http()
        .post('/assistant/create')
        .set(suite.user.auth)
        .send(assistantBody({ assistant_name: 'Support 😀 line' }));
      expect(res.status).toBe(200);
      expect(res.body.data.assistant_name).toBe('Support 😀 line');
    });
  });

  describe('Content-Encoding', () => {
    it.each(['gzip', 'br', 'deflate'])(
      '400s a plain body labelled %s (not 500)',
      async (encoding) => {
        const res = await postJson('/assistant/create')
          .set('Content-Encoding', encoding)
          .send(JSON.stringify(assistantBody()));
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          success: false,
          message: 'Request body does not match its Content-Encoding',
          data: { code: 'validation_failed' },
        });
      },
    );

    it('415s an encoding the service does not decode', async () => {
      const res = await postJson('/assistant/create')
        .set('Content-Encoding', 'compress')
        .send(JSON.stringify(assistantBody()));
      expect(res.status).toBe(415);
      expect(res.body.success).toBe(false);
    });

    it('accepts a body that really is gzip-compressed', async () => {
      const res = await postJson('/assistant/create')
        .set('Content-Encoding', 'gzip')
        // superagent would serialise a Buffer as JSON when the type is JSON: send the bytes as they are.
        .serialize((bytes: Buffer) => bytes as unknown as string)
        .send(gzipSync(JSON.stringify(assistantBody())));
      expect(res.status).toBe(200);
    });
  });

  describe('page numbers', () => {
    it.each([
      '/assistant/list',
      '/tool/list',
      '/inbound/list',
      '/inbound_context_strategy/list',
      '/logs',
    ])('400s a page whose offset is not a safe integer on %s', async (path) => {
      const res = await suite.ctx
        .http()
        .get(`${path}?page=1000000000000000000`)
        .set(suite.user.auth);
      expect(res.status).toBe(400);
      expect(res.body.data.errors).toEqual([
        { field: 'page', message: expect.stringContaining('page') },
      ]);
      await suite.ctx
        .http()
        .get(`${path}?page=90071992547409&limit=100`)
        .set(suite.user.auth)
        .expect(200);
      await suite.ctx
        .http()
        .get(`${path}?page=90071992547410&limit=100`)
        .set(suite.user.auth)
        .expect(400);
    });
  });
});
