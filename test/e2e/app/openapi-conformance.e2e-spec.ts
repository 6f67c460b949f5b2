/**
 * The e2e harness checks every response against the OpenAPI document (test/utils/openapi-conformance.ts).
 * These tests prove the check can fail: a document that disagrees with the API is caught, for a
 * body and for a status; and they pin what the document says about errors.
 */
import request from 'supertest';
import { buildOpenApiDocument } from '../../../src/bootstrap/openapi';
import { appSuite } from '../../utils/create-test-app';
import { asJsonSchema, OpenApiConformance } from '../../utils/openapi-conformance';

type Document = ReturnType<typeof buildOpenApiDocument>;

describe('OpenAPI conformance of responses (e2e)', () => {
  const suite = appSuite({ users: ['user'] });
  let document: Document;

  beforeAll(() => {
    document = buildOpenApiDocument(suite.ctx.app);
  });

  const assistant = {
    assistant_name: 'Conformance',
    assistant_description: 'd',
    assistant_prompt: 'p',
    assistant_tts_model: 'cartesia',
    assistant_tts_config: { voice_id: 'v' },
  };

  /** A checker over a changed copy of the app's own document. */
  function checkerWith(change: (doc: Document) => void): OpenApiConformance {
    const copy = structuredClone(document);
    change(copy);
    return OpenApiConformance.attach(suite.ctx.app, copy);
  }

  it('a body that breaks the documented schema is reported, naming the route, status and field', async () => {
    const checker = checkerWith((doc) => {
      const schema = doc.components!.schemas!.AssistantCreatedDto as {
        properties: Record<string, object>;
      };
      schema.properties.assistant_id = { type: 'integer' };
    });
    const res = await request(suite.ctx.app.getHttpServer())
      .post('/assistant/create')
      .set(suite.user.auth)
      .send(assistant);
    expect(res.status).toBe(200);
    expect(checker.check(res)).toEqual([
      expect.stringMatching(
        /^POST \/assistant\/create → 200: body\/data\/assistant_id must be integer/,
      ),
    ]);
  });

  /** OpenAPI 3.0's old, loose way of saying "this $ref, or null", and an enum without null. */
  const looseNullable = (doc: Document) => {
    const details = doc.components!.schemas!.AssistantDetailsDto as {
      properties: Record<string, object>;
    };
    details.properties.assistant_llm_config = {
      nullable: true,
      type: 'object',
      allOf: [{ $ref: '#/components/schemas/RealtimeLlmConfigResponseDto' }],
    };
    details.properties.assistant_tts_model = {
      type: 'string',
      nullable: true,
      enum: ['cartesia', 'sarvam', 'elevenlabs', 'mistral'],
    };
  };

  it('reads `nullable` strictly (OpenAPI 3.0.3): it does not reach into allOf/$ref nor add null to an enum', async () => {
    const create = (body: object) =>
      request(suite.ctx.app.getHttpServer())
        .post('/assistant/create')
        .set(suite.user.auth)
        .send(body);
    const pipeline = await create(assistant).expect(200);
    const realtime = await create({
      assistant_name: 'Conformance realtime',
      assistant_description: 'd',
      assistant_prompt: 'p',
      assistant_llm_mode: 'realtime',
      assistant_llm_config: { api_key: 'AIza_conformance_0123456789' },
    }).expect(200);
    const loose = checkerWith(looseNullable);
    const details = (id: string) =>
      request(suite.ctx.app.getHttpServer()).get(`/assistant/details/${id}`).set(suite.user.auth);
    const pipelineRead = await details(pipeline.body.data.assistant_id as string);
    expect(pipelineRead.body.data.assistant_llm_config).toBeNull();
    expect(loose.check(pipelineRead)).toEqual([
      expect.stringMatching(/body\/data\/assistant_llm_config must be object/),
    ]);
    const realtimeRead = await details(realtime.body.data.assistant_id as string);
    expect(realtimeRead.body.data.assistant_tts_model).toBeNull();
    expect(loose.check(realtimeRead)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /body\/data\/assistant_tts_model must be equal to one of the allowed values/,
        ),
      ]),
    );
    // The served document says it the strict way, so both reads conform to it.
    const served = OpenApiConformance.attach(suite.ctx.app, document);
    expect(served.check(await details(pipeline.body.data.assistant_id as string))).toEqual([]);
    expect(served.check(await details(realtime.body.data.assistant_id as string))).toEqual([]);
  });

  it('a status the route does not document is reported', async () => {
    const checker = checkerWith((doc) => {
      delete doc.paths['/assistant/details/{assistant_id}'].get!.responses['404'];
    });
    const res = await request(suite.ctx.app.getHttpServer())
      .get('/assistant/details/00000000-0000-4000-8000-000000000000')
      .set(suite.user.auth);
    expect(res.status).toBe(404);
    expect(checker.check(res)).toEqual([
      expect.stringMatching(
        /^GET \/assistant\/details\/\{assistant_id\} → 404: status not documented/,
      ),
    ]);
  });

  it('a request body the API accepted but the document refuses is reported (null on a non-nullable field)', async () => {
    const http = request(suite.ctx.app.getHttpServer());
    const created = await http.post('/assistant/create').set(suite.user.auth).send(assistant);
    const checker = checkerWith((doc) => {
      const schema = doc.components!.schemas!.UpdateAssistantDto as {
        properties: Record<string, { nullable?: boolean }>;
      };
      delete schema.properties.assistant_start_instruction.nullable;
    });
    const res = await http
      .patch(`/assistant/update/${created.body.data.assistant_id}`)
      .set(suite.user.auth)
      .send({ assistant_start_instruction: null });
    expect(res.status).toBe(200);
    expect(checker.check(res)).toEqual([
      expect.stringMatching(
        /^PATCH \/assistant\/update\/\{assistant_id\} → 200 accepted a request that: request body\/assistant_start_instruction must be string/,
      ),
    ]);
  });

  it('nullability follows the rules: what null clears is nullable, what refuses null is not', () => {
    const props = (name: string) =>
      (
        document.components!.schemas![name] as {
          properties: Record<string, { nullable?: boolean; type?: string; oneOf?: object[] }>;
        }
      ).properties;
    expect(props('UpdateAssistantDto').assistant_start_instruction.nullable).toBe(true);
    // A composed schema allows null through a member of its own (OpenAPI 3.0.3's strict reading).
    expect(props('UpdateAssistantDto').assistant_tts_config.oneOf).toContainEqual({
      enum: [null],
    });
    // So does a nullable enum: its values in one member, null in the other, never side by side.
    expect(props('UpdateAssistantDto').assistant_tts_model.oneOf).toEqual([
      { type: 'string', enum: ['cartesia', 'sarvam', 'elevenlabs', 'mistral'] },
      { enum: [null] },
    ]);
    expect(props('UpdateToolDto').tool_execution_config.nullable).toBeUndefined();
    expect(props('UpdateStrategyConfigDto').url.nullable).toBeUndefined();
    expect(props('ToolExecutionConfigPatchDto').url.type).toBe('string');
    expect(props('CreateAssistantDto').assistant_name.nullable).toBeUndefined();
  });

  it('responses of the real document pass, and are really checked', async () => {
    const checker = OpenApiConformance.attach(suite.ctx.app, document);
    const http = request(suite.ctx.app.getHttpServer());
    const created = await http.post('/assistant/create').set(suite.user.auth).send(assistant);
    const responses = [
      created,
      await http.get(`/assistant/details/${created.body.data.assistant_id}`).set(suite.user.auth),
      await http.get('/assistant/list').set(suite.user.auth),
      await http.get('/assistant/list').set({ Authorization: 'Bearer vac_wrong' }),
      await http.post('/assistant/create').set(suite.user.auth).send({}),
      await http
        .post('/assistant/create')
        .set(suite.user.auth)
        .set('Content-Type', 'application/json')
        .send('{'),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 200, 200, 401, 400, 422]);
    for (const res of responses) expect(checker.check(res)).toEqual([]);
    expect(checker.checked).toBe(responses.length);
  });

  it('every secured operation documents 401, 429, 500 and 503, body routes 400/413/415/422, id routes 404', () => {
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(item) as [
        string,
        Record<string, unknown>,
      ][]) {
        const statuses = Object.keys(operation.responses as object);
        const where = `${method.toUpperCase()} ${path}`;
        if (path.startsWith('/health')) continue;
        for (const status of ['401', '429', '500', '503'])
          expect({ where, has: statuses.includes(status) }).toEqual({ where, has: true });
        if (operation.requestBody)
          for (const status of ['400', '413', '415', '422'])
            expect({ where, status, has: statuses.includes(status) }).toEqual({
              where,
              status,
              has: true,
            });
        if (path.includes('{'))
          expect({ where, has: statuses.includes('404') }).toEqual({ where, has: true });
      }
    }
    const scopeOf = (path: string, method: 'get' | 'post') =>
      (document.paths[path][method] as unknown as Record<string, unknown>)['x-api-key-scope'];
    expect(scopeOf('/assistant/runtime/{assistant_id}', 'get')).toBe('runtime');
    expect(scopeOf('/auth/check-key', 'get')).toBe('any');
    expect(scopeOf('/assistant/create', 'post')).toBe('config');
    expect(document.paths['/auth/check-key'].get!.responses['403']).toBeUndefined();
  });

  it("each error example validates against the error envelope and carries its own status's message", () => {
    const Ajv = jest.requireActual<typeof import('ajv')>('ajv').default;
    const validate = new Ajv({ strict: false, validateFormats: false }).compile(
      asJsonSchema(document.components!.schemas!.ErrorEnvelopeDto) as object,
    );
    const messages = new Set<string>();
    const examples = Object.values(
      document.paths['/assistant/update/{assistant_id}'].patch!.responses,
    )
      .map((r) => (r as { content?: Record<string, { example?: { message: string } }> }).content)
      .map((content) => content?.['application/json']?.example)
      .filter((example) => example && (example as { success?: boolean }).success === false);
    expect(examples.length).toBeGreaterThanOrEqual(9);
    for (const example of examples) {
      expect({ example, valid: validate(example) }).toEqual({ example, valid: true });
      messages.add(example!.message);
    }
    expect(messages.size).toBe(examples.length);
  });
});
