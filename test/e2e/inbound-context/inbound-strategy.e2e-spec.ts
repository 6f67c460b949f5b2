import { InboundContextStrategyEntity } from '../../../src/inbound-context/inbound-context-strategy.entity';
import { digitsOf } from '../../fixtures/inbound';
import { inboundContextSuite } from '../../fixtures/inbound-context';

describe('Inbound context strategies (e2e)', () => {
  const { suite, api, newStrategy, setup, logsFor } = inboundContextSuite();

  describe('strategies', () => {
    it('creates with defaults filled in and sensitive header values masked', async () => {
      const res = await api
        .createStrategy(suite.alice, {
          strategy_name: 'CRM lookup',
          strategy_type: 'webhook',
          strategy_config: {
            url: suite.server.url('/crm'),
            headers: { Authorization: 'Bearer s3cret', 'X-Api-Key': 'k', 'X-Tenant': 'acme' },
          },
        })
        .expect(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Inbound context strategy created',
        data: {
          strategy_id: expect.stringMatching(/^[0-9a-f-]{36}$/),
          strategy_name: 'CRM lookup',
          strategy_type: 'webhook',
          strategy_config: {
            url: suite.server.url('/crm'),
            headers: { Authorization: '****', 'X-Api-Key': '****', 'X-Tenant': 'acme' },
            timeout_seconds: 2,
          },
          is_active: true,
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      });
      const details = await suite.ctx
        .http()
        .get(`/inbound_context_strategy/details/${res.body.data.strategy_id}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(details.body.data).toEqual(res.body.data);
      expect(JSON.stringify(details.body)).not.toContain('s3cret');
    });

    it.each([
      [{ strategy_config: { url: 'ftp://example.com/x' } }, 'strategy_config.url'],
      [
        { strategy_config: { url: `https://example.com/${'a'.repeat(500)}` } },
        'strategy_config.url',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: 0.4 } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: 10.5 } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', timeout_seconds: '2' } },
        'strategy_config.timeout_seconds',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'X-N': 5 } } },
        'strategy_config.headers',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'Bad Name': 'v' } } },
        'strategy_config.headers',
      ],
      [
        { strategy_config: { url: 'https://example.com/x', headers: { 'X-A': 'a\r\nX-B: b' } } },
        'strategy_config.headers',
      ],
      [
        {
          strategy_config: {
            url: 'https://example.com/x',
            headers: { Authorization: 'Bearer a', authorization: 'Bearer b' },
          },
        },
        'strategy_config.headers',
      ],
      [{ strategy_type: 'function' }, 'strategy_type'],
      [{ strategy_name: '' }, 'strategy_name'],
      [{ strategy_name: 'x'.repeat(101) }, 'strategy_name'],
      [{ strategy_config: undefined }, 'strategy_config'],
      [{ is_active: 'true' }, 'is_active'],
    ])('rejects %j naming %s', async (patch, field) => {
      const body = {
        strategy_name: 'n',
        strategy_type: 'webhook',
        strategy_config: { url: 'https://example.com/x' },
        ...patch,
      };
      const res = await api.createStrategy(suite.alice, body).expect(400);
      expect(res.body.success).toBe(false);
      expect((res.body.data.errors as { field: string }[]).map((e) => e.field)).toContain(field);
    });

    it('merges headers on update: null deletes, **** keeps, a value replaces; other fields replace', async () => {
      const created = await newStrategy(suite.alice, '/merge', {
        headers: {
          Authorization: 'Bearer keep-me',
          'X-Token': 'old-token',
          'X-Remove': 'bye',
          'X-Plain': 'p1',
        },
        timeout_seconds: 3,
      });
      const res = await api
        .updateStrategy(suite.alice, created.strategy_id, {
          strategy_name: 'renamed',
          strategy_config: {
            headers: {
              Authorization: '****',
              'X-Token': 'new-token',
              'X-Remove': null,
              'X-New': 'n',
            },
          },
          is_active: false,
        })
        .expect(200);
      expect(res.body.data).toMatchObject({
        strategy_name: 'renamed',
        is_active: false,
        strategy_config: {
          url: suite.server.url('/merge'),
          timeout_seconds: 3,
          headers: { Authorization: '****', 'X-Token': '****', 'X-Plain': 'p1', 'X-New': 'n' },
        },
      });
      expect(Object.keys(res.body.data.strategy_config.headers).sort()).toEqual([
        'Authorization',
        'X-New',
        'X-Plain',
        'X-Token',
      ]);
      const stored = await suite.ctx.dataSource
        .getRepository(InboundContextStrategyEntity)
        .findOneByOrFail({ strategy_id: created.strategy_id });
      expect(stored.strategy_config.headers).toEqual({
        Authorization: 'Bearer keep-me',
        'X-Token': 'new-token',
        'X-Plain': 'p1',
        'X-New': 'n',
      });
    });

    it('validates the merged record on update', async () => {
      const created = await newStrategy(suite.alice, '/merge-invalid');
      const res = await api
        .updateStrategy(suite.alice, created.strategy_id, {
          strategy_config: { timeout_seconds: 11 },
        })
        .expect(400);
      expect(res.body.data.errors[0].field).toBe('strategy_config.timeout_seconds');
    });

    it('lists newest first, paginated, only the caller’s', async () => {
      const user = await suite.ctx.newUser();
      const ids: string[] = [];
      for (let i = 0; i < 3; i += 1) ids.push((await newStrategy(user, `/list-${i}`)).strategy_id);
      const page = await suite.ctx
        .http()
        .get('/inbound_context_strategy/list')
        .query({ page: 1, limit: 2 })
        .set(user.auth)
        .expect(200);
      expect(page.body.data.total).toBe(3);
      expect(page.body.data.page).toBe(1);
      expect(page.body.data.limit).toBe(2);
      expect(page.body.data.items.map((s: { strategy_id: string }) => s.strategy_id)).toEqual([
        ids[2],
        ids[1],
      ]);
      const page2 = await suite.ctx
        .http()
        .get('/inbound_context_strategy/list')
        .query({ page: 2, limit: 2 })
        .set(user.auth)
        .expect(200);
      expect(page2.body.data.items.map((s: { strategy_id: string }) => s.strategy_id)).toEqual([
        ids[0],
      ]);
    });

    it('hides other users’ strategies (404) and refuses malformed ids (400)', async () => {
      const created = await newStrategy(suite.alice, '/private');
      await suite.ctx
        .http()
        .get(`/inbound_context_strategy/details/${created.strategy_id}`)
        .set(suite.bob.auth)
        .expect(404);
      await api.updateStrategy(suite.bob, created.strategy_id, { strategy_name: 'x' }).expect(404);
      await suite.ctx
        .http()
        .delete(`/inbound_context_strategy/delete/${created.strategy_id}`)
        .set(suite.bob.auth)
        .expect(404);
      await suite.ctx
        .http()
        .get('/inbound_context_strategy/details/not-a-uuid')
        .set(suite.alice.auth)
        .expect(400);
    });

    it('deletes a strategy and detaches it from mappings', async () => {
      const { strategy, inboundId } = await setup(suite.alice, '/to-delete');
      const res = await suite.ctx
        .http()
        .delete(`/inbound_context_strategy/delete/${strategy.strategy_id}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(res.body.data).toEqual({ strategy_id: strategy.strategy_id, detached_mappings: 1 });
      const mapping = await suite.ctx
        .http()
        .get(`/inbound/details/${inboundId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(mapping.body.data.inbound_context_strategy_id).toBeNull();
      await suite.ctx
        .http()
        .get(`/inbound_context_strategy/details/${strategy.strategy_id}`)
        .set(suite.alice.auth)
        .expect(404);
    });
  });

  describe('dry run', () => {
    it('calls the webhook and previews the prompt without writing a log', async () => {
      suite.server.respond('/dry', { body: { context: { name: 'Meera', tier: 'silver' } } });
      const { assistant, strategy, inboundId, phone } = await setup(suite.alice, '/dry', {
        headers: { 'X-Api-Key': 'dry-key' },
      });
      const res = await suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(suite.alice.auth)
        .send({ caller_number: '+15551234' })
        .expect(200);
      expect(res.body.data).toEqual({
        status: 'success',
        error: null,
        error_class: null,
        status_code: 200,
        latency_ms: expect.any(Number),
        context_keys: ['name', 'tier'],
        context: { name: 'Meera', tier: 'silver' },
        fallback_used: false,
        assistant_id: assistant.assistant_id,
        prompt_preview: 'Hello Meera, your tier is silver. Plan: .',
        start_instruction_preview: 'Greet Meera',
        secrets_used: [],
        request: {
          url: suite.server.url('/dry'),
          headers: { 'X-Api-Key': '****' },
          payload: expect.objectContaining({
            inbound_id: inboundId,
            caller_number: '+15551234',
            inbound_number: digitsOf(phone),
            dry_run: true,
          }),
        },
      });
      const [received] = suite.server.requestsTo('/dry');
      expect(received.headers['x-api-key']).toBe('dry-key');
      expect(await logsFor(suite.alice, { assistant_id: assistant.assistant_id })).toHaveLength(0);
    });

    it('reports a failing webhook and 404s on another user’s strategy', async () => {
      suite.server.respond('/dry-fail', { status: 503, body: '' });
      const strategy = await newStrategy(suite.alice, '/dry-fail');
      const res = await suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(suite.alice.auth)
        .send({})
        .expect(200);
      expect(res.body.data).toMatchObject({
        status: 'error',
        status_code: 503,
        error: 'http_error: webhook answered HTTP 503',
        context_keys: [],
        prompt_preview: null,
      });
      await suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
        .set(suite.bob.auth)
        .send({})
        .expect(404);
    });
  });
});
