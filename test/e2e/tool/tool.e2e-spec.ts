import { assistantApi } from '../../api/assistant-api';
import { toolApi } from '../../api/tool-api';
import { UUID } from '../../fixtures/formats';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

/** Distinct error fields, in order: one field may carry several messages. */
const fieldsOf = (body: { data: { errors: Array<{ field: string }> } }) => [
  ...new Set(body.data.errors.map((e) => e.field)),
];

const SECRET = 'Bearer sk_live_tool_e2e_secret_value_123';

const webhookBody = (overrides: Record<string, unknown> = {}) => ({
  tool_name: 'get_order_status',
  tool_description: 'Looks up the delivery status of an order.',
  tool_parameters: [
    { name: 'order_id', type: 'string', description: 'Order number' },
    { name: 'channel', type: 'string', required: false, enum: ['web', 'phone'] },
  ],
  tool_execution_type: 'webhook',
  tool_execution_config: {
    url: 'https://api.example.com/orders/status',
    headers: { Authorization: SECRET, 'X-Tenant': 'acme' },
  },
  ...overrides,
});

describe('Tools (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });

  const createTool = async (user: TestUser, body: Record<string, unknown>): Promise<string> =>
    (await toolApi(suite.ctx, user).create(body)).tool_id;

  const createAssistant = async (user: TestUser): Promise<string> =>
    (await assistantApi(suite.ctx, user).create()).assistant_id;

  const details = (user: TestUser, id: string) =>
    suite.ctx.http().get(`/tool/details/${id}`).set(user.auth);
  const update = (user: TestUser, id: string, body: object) =>
    suite.ctx.http().patch(`/tool/update/${id}`).set(user.auth).send(body);

  describe('POST /tool/create', () => {
    it('creates a webhook tool: 200 with tool_id and tool_name', async () => {
      const res = await suite.ctx
        .http()
        .post('/tool/create')
        .set(suite.alice.auth)
        .send(webhookBody());
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Tool created',
        data: { tool_id: expect.stringMatching(UUID), tool_name: 'get_order_status' },
      });
    });

    it('shows defaults (timeout 10, required true) and masks sensitive headers on read', async () => {
      const id = await createTool(suite.alice, webhookBody());
      const res = await details(suite.alice, id).expect(200);
      expect(res.text).not.toContain('sk_live_tool_e2e_secret_value_123');
      expect(res.body.data).toEqual({
        tool_id: id,
        tool_name: 'get_order_status',
        tool_description: 'Looks up the delivery status of an order.',
        tool_parameters: [
          { name: 'order_id', type: 'string', description: 'Order number', required: true },
          { name: 'channel', type: 'string', required: false, enum: ['web', 'phone'] },
        ],
        tool_execution_type: 'webhook',
        tool_execution_config: {
          url: 'https://api.example.com/orders/status',
          timeout: 10,
          headers: { Authorization: '****', 'X-Tenant': 'acme' },
        },
        side_effect: 'none',
        dedupe_key: null,
        dedupe_window_seconds: 3600,
        notify_cancel: false,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      const list = await suite.ctx.http().get('/tool/list').set(suite.alice.auth).expect(200);
      expect(list.text).not.toContain('sk_live_tool_e2e_secret_value_123');
    });

    it.each([
      ['a string', 'We open at nine.'],
      ['an empty string', ''],
      ['a number', 42.5],
      ['zero', 0],
      ['a boolean', false],
      [
        'a nested object',
        {
          hours: { mon: '9-5', sun: null },
          tags: ['a', { b: [1, 2] }],
          keys: 'with any name but Object.prototype members',
        },
      ],
      ['an array', [1, 'two', { three: [3] }, [], null, true]],
    ])('returns a static value that is %s unchanged', async (_label, value) => {
      const id = await createTool(suite.alice, staticToolBody('static_value', value));
      const res = await details(suite.alice, id).expect(200);
      expect(res.body.data.tool_execution_type).toBe('static_return');
      expect(res.body.data.tool_execution_config).toStrictEqual({ value });
      expect(res.body.data.tool_parameters).toEqual([]);
    });

    it('refuses Object.prototype member names inside a static value, naming the path', async () => {
      const res = await suite.ctx
        .http()
        .post('/tool/create')
        .set(suite.alice.auth)
        .set('Content-Type', 'application/json')
        .send(
          '{"tool_name":"proto_value","tool_description":"d","tool_execution_type":"static_return",' +
            '"tool_execution_config":{"value":{"ok":1,"toString":"t"}}}',
        )
        .expect(400);
      expect(res.body.data.errors).toEqual([
        { field: 'tool_execution_config.value.toString', message: 'reserved field name' },
      ]);
    });

    it.each([
      ['tool_name', { tool_name: 'Get-Order' }],
      ['tool_name', { tool_name: 'a'.repeat(65) }],
      ['tool_description', { tool_description: '' }],
      ['tool_execution_type', { tool_execution_type: 'ftp' }],
      ['tool_execution_config', { tool_execution_config: undefined }],
      ['tool_execution_config.url', { tool_execution_config: { url: 'ftp://x.example' } }],
      [
        'tool_execution_config.timeout',
        { tool_execution_config: { url: 'https://a.example', timeout: '10' } },
      ],
      [
        'tool_execution_config.timeout',
        { tool_execution_config: { url: 'https://a.example', timeout: 60.01 } },
      ],
      [
        'tool_parameters[0].enum',
        { tool_parameters: [{ name: 'n', type: 'number', enum: ['1'] }] },
      ],
      [
        'tool_parameters[1].name',
        {
          tool_parameters: [
            { name: 'a', type: 'string' },
            { name: 'a', type: 'number' },
          ],
        },
      ],
      ['tool_parameters[0].type', { tool_parameters: [{ name: 'a', type: 'integer' }] }],
    ])('answers 400 naming %s', async (field, overrides) => {
      const res = await suite.ctx
        .http()
        .post('/tool/create')
        .set(suite.alice.auth)
        .send(webhookBody(overrides));
      expect(res.status).toBe(400);
      expect(res.body.success).toBe(false);
      expect(fieldsOf(res.body)).toEqual([field]);
    });

    it('answers 400 for a static tool with a null value', async () => {
      const res = await suite.ctx
        .http()
        .post('/tool/create')
        .set(suite.alice.auth)
        .send(staticToolBody('nothing', null));
      expect(res.status).toBe(400);
      expect(res.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
        'tool_execution_config.value',
      ]);
    });

    /** `levels` containers: `{"a":{"a":...}}` or `[[...]]`, a string at the bottom. */
    const nested = (levels: number, asArray: boolean): unknown => {
      let value: unknown = 'bottom';
      for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
      return value;
    };

    it.each([
      [21, false],
      [31, true],
      [40, false],
    ])(
      'answers 400 for a static value nested %i levels (arrays: %p), naming the limit; the same in both modes',
      async (levels, asArray) => {
        const before = await suite.ctx
          .http()
          .get('/tool/list?limit=1')
          .set(suite.alice.auth)
          .expect(200);
        const res = await suite.ctx
          .http()
          .post('/tool/create')
          .set(suite.alice.auth)
          .send(staticToolBody(`deep_${levels}`, nested(levels, asArray)));
        expect(res.status).toBe(400);
        expect(res.body.data.errors).toEqual([
          {
            field: 'tool_execution_config.value',
            message: 'value must not nest objects and arrays more than 20 levels deep',
          },
        ]);
        const after = await suite.ctx
          .http()
          .get('/tool/list?limit=1')
          .set(suite.alice.auth)
          .expect(200);
        expect(after.body.data.total).toBe(before.body.data.total);
      },
    );

    it('stores a static value nested 20 levels, and refuses an update nesting it deeper', async () => {
      const value = nested(20, false);
      const id = await createTool(suite.alice, staticToolBody('deep_ok', value));
      const read = await details(suite.alice, id).expect(200);
      expect(read.body.data.tool_execution_config.value).toEqual(value);
      const res = await update(suite.alice, id, {
        tool_execution_config: { value: nested(31, true) },
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(['tool_execution_config.value']);
      const kept = await details(suite.alice, id).expect(200);
      expect(kept.body.data.tool_execution_config.value).toEqual(value);
    });

    it('answers 401 without a key', async () => {
      await suite.ctx.http().post('/tool/create').send(webhookBody()).expect(401);
    });
  });

  it('documents POST /tool/create with both example bodies and the typed envelope', async () => {
    const doc = await suite.ctx.http().get('/docs-json').expect(200);
    const op = doc.body.paths['/tool/create'].post;
    expect(Object.keys(op.requestBody.content['application/json'].examples)).toEqual([
      'webhook',
      'static_return',
    ]);
    expect(op.responses['200'].content['application/json'].schema.properties.data).toEqual({
      $ref: '#/components/schemas/CreateToolResponseDto',
    });
    const schemas = doc.body.components.schemas;
    expect(schemas.CreateToolDto.required).toEqual(
      expect.arrayContaining([
        'tool_name',
        'tool_description',
        'tool_execution_type',
        'tool_execution_config',
      ]),
    );
    expect(schemas.CreateToolDto.required).not.toContain('tool_parameters');
    expect(schemas.WebhookExecutionConfigDto.required).toEqual(['url']);
    expect(schemas.ToolParameterDto.properties.type.enum).toEqual([
      'string',
      'number',
      'boolean',
      'object',
      'array',
    ]);
  });

  describe('GET /tool/list', () => {
    it('pages the caller’s tools newest first with the total', async () => {
      const carol = await suite.ctx.newUser();
      const ids: string[] = [];
      for (const name of ['first', 'second', 'third'])
        ids.push(await createTool(carol, staticToolBody(name, name)));
      const page1 = await suite.ctx
        .http()
        .get('/tool/list?page=1&limit=2')
        .set(carol.auth)
        .expect(200);
      expect(page1.body.data.total).toBe(3);
      expect(page1.body.data.page).toBe(1);
      expect(page1.body.data.limit).toBe(2);
      expect(page1.body.data.items.map((t: { tool_id: string }) => t.tool_id)).toEqual([
        ids[2],
        ids[1],
      ]);
      const page2 = await suite.ctx
        .http()
        .get('/tool/list?page=2&limit=2')
        .set(carol.auth)
        .expect(200);
      expect(page2.body.data.items.map((t: { tool_id: string }) => t.tool_id)).toEqual([ids[0]]);
      const other = await suite.ctx.http().get('/tool/list').set(suite.bob.auth).expect(200);
      expect(other.body.data.items.map((t: { tool_id: string }) => t.tool_id)).not.toContain(
        ids[0],
      );
    });
  });

  describe('PATCH /tool/update/:tool_id', () => {
    it('merges headers key by key: **** keeps, null deletes, a value sets; other fields replace', async () => {
      const id = await createTool(suite.alice, webhookBody());
      const res = await update(suite.alice, id, {
        tool_description: 'Updated.',
        tool_execution_config: {
          timeout: 20,
          headers: { Authorization: '****', 'X-Tenant': null, 'X-New': 'n' },
        },
      });
      expect(res.status).toBe(200);
      expect(res.text).not.toContain('sk_live_tool_e2e_secret_value_123');
      expect(res.body.data).toMatchObject({
        tool_description: 'Updated.',
        tool_name: 'get_order_status',
        tool_execution_config: {
          url: 'https://api.example.com/orders/status',
          timeout: 20,
          headers: { Authorization: '****', 'X-New': 'n' },
        },
      });
      const [row] = await suite.ctx.dataSource.query(
        'SELECT tool_execution_config FROM tools WHERE tool_id = ?',
        [id],
      );
      const stored =
        typeof row.tool_execution_config === 'string'
          ? JSON.parse(row.tool_execution_config)
          : row.tool_execution_config;
      expect(stored.headers).toEqual({ Authorization: SECRET, 'X-New': 'n' });
    });

    it('re-validates the merged tool as a whole', async () => {
      const id = await createTool(suite.alice, webhookBody());
      const wrongShape = await update(suite.alice, id, { tool_execution_config: { value: 1 } });
      expect(wrongShape.status).toBe(400);
      expect(wrongShape.body.data.errors).toEqual([
        { field: 'tool_execution_config.value', message: 'unknown field' },
      ]);

      const typeOnly = await update(suite.alice, id, { tool_execution_type: 'static_return' });
      expect(typeOnly.status).toBe(400);
      expect(typeOnly.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
        'tool_execution_config.value',
      ]);

      const switched = await update(suite.alice, id, {
        tool_execution_type: 'static_return',
        tool_execution_config: { value: { ok: true } },
      });
      expect(switched.status).toBe(200);
      expect(switched.body.data.tool_execution_config).toStrictEqual({ value: { ok: true } });

      const badParams = await update(suite.alice, id, {
        tool_parameters: [{ name: 'x', type: 'boolean', enum: ['a'] }],
      });
      expect(badParams.status).toBe(400);
      expect(badParams.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
        'tool_parameters[0].enum',
      ]);
    });
  });

  describe('attach and detach', () => {
    it('attaches idempotently, lists the ids, and detaches', async () => {
      const assistantId = await createAssistant(suite.alice);
      const t1 = await createTool(suite.alice, staticToolBody('tool_one', 1));
      const t2 = await createTool(suite.alice, staticToolBody('tool_two', 2));

      const attached = await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [t1, t2, t1] });
      expect(attached.status).toBe(200);
      expect(attached.body.message).toBe('Tools attached');
      expect(attached.body.data.assistant_id).toBe(assistantId);
      expect([...attached.body.data.tool_ids].sort()).toEqual([t1, t2].sort());

      const again = await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [t1] });
      expect(again.status).toBe(200);
      expect(again.body.data.tool_ids).toEqual(attached.body.data.tool_ids);

      const assistant = await suite.ctx
        .http()
        .get(`/assistant/details/${assistantId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(assistant.body.data.tool_ids).toEqual(attached.body.data.tool_ids);

      const detached = await suite.ctx
        .http()
        .post(`/tool/detach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [t1] });
      expect(detached.status).toBe(200);
      expect(detached.body.data).toEqual({ assistant_id: assistantId, tool_ids: [t2] });
      // Detaching what is not attached changes nothing.
      const noop = await suite.ctx
        .http()
        .post(`/tool/detach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [t1] });
      expect(noop.body.data).toEqual({ assistant_id: assistantId, tool_ids: [t2] });
    });

    it('answers 404 naming another user’s or a missing tool, and attaches nothing', async () => {
      const assistantId = await createAssistant(suite.alice);
      const mine = await createTool(suite.alice, staticToolBody('mine', 1));
      const bobs = await createTool(suite.bob, staticToolBody('bobs', 1));
      const missing = '00000000-0000-4000-8000-000000000000';
      const res = await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [mine, bobs, missing] });
      expect(res.status).toBe(404);
      expect(res.body.success).toBe(false);
      expect(res.body.data).toEqual({ code: 'not_found', tool_ids: [bobs, missing] });
      const assistant = await suite.ctx
        .http()
        .get(`/assistant/details/${assistantId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(assistant.body.data.tool_ids).toEqual([]);
    });

    it('answers 404 for another user’s assistant', async () => {
      const bobsAssistant = await createAssistant(suite.bob);
      const mine = await createTool(suite.alice, staticToolBody('mine', 1));
      await suite.ctx
        .http()
        .post(`/tool/attach/${bobsAssistant}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [mine] })
        .expect(404);
      await suite.ctx
        .http()
        .post(`/tool/detach/${bobsAssistant}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [mine] })
        .expect(404);
    });

    it('answers 409 when two attached tools would share a name, on attach and on rename', async () => {
      const assistantId = await createAssistant(suite.alice);
      const a = await createTool(suite.alice, staticToolBody('lookup', 'a'));
      const b = await createTool(suite.alice, staticToolBody('lookup', 'b'));
      const c = await createTool(suite.alice, staticToolBody('other', 'c'));
      await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [a, c] })
        .expect(200);

      const clash = await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [b] });
      expect(clash.status).toBe(409);
      expect(clash.body.data).toEqual({
        code: 'conflict',
        tool_name: 'lookup',
        tool_ids: expect.arrayContaining([a, b]),
      });

      const both = await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [a, b] });
      expect(both.status).toBe(409);

      const rename = await update(suite.alice, c, { tool_name: 'lookup' });
      expect(rename.status).toBe(409);
      expect(rename.body.data).toEqual({
        code: 'conflict',
        tool_name: 'lookup',
        assistant_ids: [assistantId],
        tool_ids: [a],
      });
      const unchanged = await details(suite.alice, c).expect(200);
      expect(unchanged.body.data.tool_name).toBe('other');

      // A tool that is not attached anywhere may take any name.
      await update(suite.alice, b, { tool_name: 'other' }).expect(200);
      const assistant = await suite.ctx
        .http()
        .get(`/assistant/details/${assistantId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect([...assistant.body.data.tool_ids].sort()).toEqual([a, c].sort());
    });

    it('lets only one of two concurrent same-name attaches through', async () => {
      for (let round = 0; round < 3; round += 1) {
        const assistantId = await createAssistant(suite.alice);
        const a = await createTool(suite.alice, staticToolBody('racer', 'a'));
        const b = await createTool(suite.alice, staticToolBody('racer', 'b'));
        const results = await Promise.all(
          [a, b].map((id) =>
            suite.ctx
              .http()
              .post(`/tool/attach/${assistantId}`)
              .set(suite.alice.auth)
              .send({ tool_ids: [id] }),
          ),
        );
        expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
        const assistant = await suite.ctx
          .http()
          .get(`/assistant/details/${assistantId}`)
          .set(suite.alice.auth)
          .expect(200);
        expect(assistant.body.data.tool_ids).toHaveLength(1);
      }
    });

    it('does not let a rename and an attach race into a clash', async () => {
      for (let round = 0; round < 3; round += 1) {
        const assistantId = await createAssistant(suite.alice);
        const attachedTool = await createTool(suite.alice, staticToolBody('renamed', 'a'));
        const incoming = await createTool(suite.alice, staticToolBody('target', 'b'));
        await suite.ctx
          .http()
          .post(`/tool/attach/${assistantId}`)
          .set(suite.alice.auth)
          .send({ tool_ids: [attachedTool] })
          .expect(200);
        const [rename, attach] = await Promise.all([
          update(suite.alice, attachedTool, { tool_name: 'target' }),
          suite.ctx
            .http()
            .post(`/tool/attach/${assistantId}`)
            .set(suite.alice.auth)
            .send({ tool_ids: [incoming] }),
        ]);
        expect([rename.status, attach.status].sort()).toEqual([200, 409]);
      }
    });

    it('validates the body', async () => {
      const assistantId = await createAssistant(suite.alice);
      for (const body of [{ tool_ids: [] }, { tool_ids: ['nope'] }, {}]) {
        const res = await suite.ctx
          .http()
          .post(`/tool/attach/${assistantId}`)
          .set(suite.alice.auth)
          .send(body);
        expect(res.status).toBe(400);
        expect(fieldsOf(res.body)).toEqual(['tool_ids']);
      }
      const res = await suite.ctx
        .http()
        .post('/tool/attach/not-a-uuid')
        .set(suite.alice.auth)
        .send({ tool_ids: [assistantId] });
      expect(res.status).toBe(400);
    });
  });

  describe('DELETE /tool/delete/:tool_id', () => {
    it('deletes the tool and detaches it from assistants', async () => {
      const assistantId = await createAssistant(suite.alice);
      const keep = await createTool(suite.alice, staticToolBody('keep', 1));
      const gone = await createTool(suite.alice, staticToolBody('gone', 2));
      await suite.ctx
        .http()
        .post(`/tool/attach/${assistantId}`)
        .set(suite.alice.auth)
        .send({ tool_ids: [keep, gone] })
        .expect(200);
      const res = await suite.ctx.http().delete(`/tool/delete/${gone}`).set(suite.alice.auth);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        success: true,
        message: 'Tool deleted',
        data: { tool_id: gone, detached_assistant_ids: [assistantId] },
      });
      await details(suite.alice, gone).expect(404);
      const assistant = await suite.ctx
        .http()
        .get(`/assistant/details/${assistantId}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(assistant.body.data.tool_ids).toEqual([keep]);
      await suite.ctx.http().delete(`/tool/delete/${gone}`).set(suite.alice.auth).expect(404);
    });
  });

  describe('scoping', () => {
    it('reports another user’s tool as 404 everywhere and a malformed id as 400', async () => {
      const id = await createTool(suite.alice, webhookBody());
      for (const res of [
        await details(suite.bob, id),
        await update(suite.bob, id, { tool_description: 'x' }),
        await suite.ctx.http().delete(`/tool/delete/${id}`).set(suite.bob.auth),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body).toEqual({
          success: false,
          message: 'Tool not found',
          data: { code: 'not_found' },
        });
      }
      await details(suite.alice, id).expect(200);
      const bad = await details(suite.alice, 'not-a-uuid');
      expect(bad.status).toBe(400);
      expect(bad.body.data.errors).toEqual([
        { field: 'tool_id', message: 'tool_id must be a UUID' },
      ]);
    });
  });
});

describe('Tools with the SSRF guard on (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    app: { env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } },
  });

  it.each([
    ['http://169.254.169.254/latest/meta-data'],
    ['http://127.0.0.1:8080/hook'],
    ['http://[::1]/x'],
    ['http://localhost/x'],
  ])('refuses %s on create and on update', async (url) => {
    const created = await suite.ctx
      .http()
      .post('/tool/create')
      .set(suite.user.auth)
      .send(webhookBody({ tool_execution_config: { url } }));
    expect(created.status).toBe(400);
    expect(created.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
      'tool_execution_config.url',
    ]);

    const ok = await suite.ctx
      .http()
      .post('/tool/create')
      .set(suite.user.auth)
      .send(webhookBody({ tool_execution_config: { url: 'https://93.184.215.14/hook' } }));
    expect(ok.status).toBe(200);
    const updated = await suite.ctx
      .http()
      .patch(`/tool/update/${ok.body.data.tool_id}`)
      .set(suite.user.auth)
      .send({ tool_execution_config: { url } });
    expect(updated.status).toBe(400);
    expect(updated.body.data.errors.map((e: { field: string }) => e.field)).toEqual([
      'tool_execution_config.url',
    ]);
  });
});
