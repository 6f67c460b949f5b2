import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script, createContext } from 'node:vm';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Public } from '../../../src/auth/public.decorator';
import { EXAMPLE_ASSISTANT_ID, EXAMPLE_TOOL_ID } from '../../../src/common/validation/example-ids';
import { createTestApp, type TestContext } from '../../utils/create-test-app';
import { freePort } from '../../utils/free-port';

/** Every special pattern of a `String.prototype.replace` replacement string. */
const REPLACE_PATTERNS = "$` $' $& $$ $1 $<name> end$";

class HostileTextDto {
  @ApiProperty({ description: REPLACE_PATTERNS, example: REPLACE_PATTERNS, pattern: '^a$' })
  text: string;
}

@Controller('__docs_test')
class HostileTextController {
  @Public()
  @Post('echo')
  echo(@Body() body: HostileTextDto): HostileTextDto {
    return body;
  }
}

/** Runs /docs/swagger-ui-init.js as the browser would and returns the options it hands Swagger UI. */
function runInitScript(source: string): { spec: unknown } {
  let captured: { spec: unknown } | undefined;
  const SwaggerUIBundle = Object.assign(
    (options: { spec: unknown }) => {
      captured = options;
      return { initOAuth: () => undefined, authActions: { authorize: () => undefined } };
    },
    { presets: { apis: {} }, plugins: { DownloadUrl: {} } },
  );
  const window: { location: object; onload?: () => void } = {
    location: { search: '', origin: 'http://localhost' },
  };
  const context = createContext({ window, SwaggerUIBundle, SwaggerUIStandalonePreset: {} });
  new Script(source, { filename: 'swagger-ui-init.js' }).runInContext(context);
  window.onload!();
  if (!captured) throw new Error('swagger-ui-init.js did not start Swagger UI');
  return captured;
}

describe('OpenAPI document and Swagger UI (e2e)', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    ctx = await createTestApp({ controllers: [HostileTextController] });
  });
  afterAll(() => ctx.close());

  it('serves a Swagger UI init script that parses and embeds exactly the /docs-json document', async () => {
    const json = await ctx.http().get('/docs-json').expect(200);
    const init = await ctx.http().get('/docs/swagger-ui-init.js').expect(200);
    expect(init.headers['content-type']).toMatch(/javascript/);
    const options = runInitScript(init.text);
    expect(options.spec).toEqual(json.body);
  });

  it('carries text holding replacement patterns through the init script unchanged', async () => {
    const json = await ctx.http().get('/docs-json').expect(200);
    expect(json.body.components.schemas.HostileTextDto.properties.text.description).toBe(
      REPLACE_PATTERNS,
    );
    const init = await ctx.http().get('/docs/swagger-ui-init.js').expect(200);
    const spec = runInitScript(init.text).spec as typeof json.body;
    expect(spec.components.schemas.HostileTextDto.properties.text).toEqual({
      type: 'string',
      description: REPLACE_PATTERNS,
      example: REPLACE_PATTERNS,
      pattern: '^a$',
    });
  });

  it('serves a valid OpenAPI 3 document: every $ref resolves', async () => {
    const json = await ctx.http().get('/docs-json').expect(200);
    await expect(SwaggerParser.validate(json.body as never)).resolves.toBeDefined();
  });

  it('states `format: uuid` for every path id the service checks as a UUID (each such route: 400 on another id)', async () => {
    const json = await ctx.http().get('/docs-json').expect(200);
    const doc = json.body as {
      paths: Record<
        string,
        Record<
          string,
          { parameters?: { in: string; name: string; schema?: { format?: string } }[] }
        >
      >;
    };
    const uuidIds: string[] = [];
    const otherIds: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths))
      for (const [method, operation] of Object.entries(operations))
        for (const p of operation.parameters ?? [])
          if (p.in === 'path' && p.name.endsWith('_id'))
            (p.schema?.format === 'uuid' ? uuidIds : otherIds).push(`${method} ${path} ${p.name}`);
    // A log id is a number; every other id of the API is a UUID.
    expect(otherIds).toEqual(['post /logs/replay/{log_id} log_id']);
    expect(uuidIds.length).toBeGreaterThan(30);
    const user = await ctx.newUser();
    const res = await ctx.http().get('/assistant/details/not-a-uuid').set(user.auth);
    expect(res.status).toBe(400);
    expect(res.body.data.errors).toEqual([
      { field: 'assistant_id', message: 'assistant_id must be a UUID' },
    ]);
  });

  it('names every operation meaningfully (createAssistant, listLogs...) and says keys are opaque', async () => {
    const doc = (await ctx.http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { operationId?: string }>>;
      components: { securitySchemes: Record<string, { bearerFormat?: string }> };
    };
    const ids = Object.entries(doc.paths)
      .filter(([path]) => !path.startsWith('/__docs_test'))
      .flatMap(([, item]) => Object.values(item).map((operation) => operation.operationId));
    for (const id of ids) expect(id).toMatch(/^[a-z]+[A-Z][A-Za-z]*$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/assistant/create'].post.operationId).toBe('createAssistant');
    expect(doc.paths['/assistant/details/{assistant_id}'].get.operationId).toBe('getAssistant');
    expect(doc.paths['/tool/update/{tool_id}'].patch.operationId).toBe('updateTool');
    expect(doc.paths['/logs'].get.operationId).toBe('listLogs');
    expect(doc.components.securitySchemes.bearer.bearerFormat).not.toBe('JWT');
  });

  it('closes every request body schema, as the validation pipe does', async () => {
    const doc = (await ctx.http().get('/docs-json').expect(200)).body as {
      components: { schemas: Record<string, { additionalProperties?: unknown }> };
    };
    for (const name of [
      'CreateAssistantDto',
      'UpdateAssistantDto',
      'CreateToolDto',
      'UpdateToolDto',
      'AttachToolsDto',
      'CreateStrategyDto',
      'StrategyConfigDto',
      'AssignInboundDto',
      'InboundConfigDto',
      'CreateKeyDto',
    ])
      expect({ name, closed: doc.components.schemas[name].additionalProperties }).toEqual({
        name,
        closed: false,
      });
    const user = await ctx.newUser();
    const res = await ctx
      .http()
      .post('/tool/attach/6f1d3c2a-8b4e-4c1f-9a7d-2e5b8c0f4a13')
      .set(user.auth)
      .send({ tool_ids: ['0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11'], extra: 1 });
    expect(res.status).toBe(400);
  });

  it('gives every request body an example, and pre-fills no dates into GET /logs', async () => {
    const doc = (await ctx.http().get('/docs-json').expect(200)).body as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody?: { content: Record<string, { examples?: object; example?: object }> };
            parameters?: { name: string; schema: { example?: unknown; default?: unknown } }[];
          }
        >
      >;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const media = operation.requestBody?.content['application/json'];
        if (!media || path.startsWith('/__docs_test')) continue;
        expect({ path, method, example: Boolean(media.examples ?? media.example) }).toEqual({
          path,
          method,
          example: true,
        });
      }
    }
    const dates = doc.paths['/logs'].get.parameters!.filter((p) => ['from', 'to'].includes(p.name));
    expect(dates).toHaveLength(2);
    for (const { schema } of dates) {
      expect(schema.example).toBeUndefined();
      expect(schema.default).toBeUndefined();
    }
  });

  it('names, beside every example holding a placeholder id, the route that creates one', async () => {
    const doc = (await ctx.http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { description?: string; requestBody?: unknown }>>;
    };
    const placeholders = [
      { id: EXAMPLE_ASSISTANT_ID, creator: '`POST /assistant/create`' },
      { id: EXAMPLE_TOOL_ID, creator: '`POST /tool/create`' },
    ];
    const naming = placeholders.flatMap(({ id, creator }) =>
      Object.entries(doc.paths).flatMap(([path, item]) =>
        Object.entries(item)
          .filter(([, op]) => JSON.stringify(op.requestBody ?? null).includes(id))
          .map(([method, op]) => ({ path, method, creator, description: op.description ?? '' })),
      ),
    );
    expect(naming.map((o) => `${o.method} ${o.path} ${o.creator}`)).toEqual(
      expect.arrayContaining([
        'post /inbound/assign `POST /assistant/create`',
        'post /tool/attach/{assistant_id} `POST /tool/create`',
        'post /tool/detach/{assistant_id} `POST /tool/create`',
      ]),
    );
    for (const operation of naming)
      expect(operation).toEqual({
        ...operation,
        description: expect.stringContaining(operation.creator),
      });
  });

  it('serves the Swagger UI page', async () => {
    const res = await ctx.http().get('/docs').expect(200);
    expect(res.text).toContain('swagger-ui-init.js');
  });
});

interface OpenApiDoc {
  components: { schemas: Record<string, { properties?: object }> };
}

describe('OpenAPI document under `npm start` (nest build with the compiler plugin, then node)', () => {
  let ctx: TestContext;
  let child: ChildProcess | undefined;
  let dir: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'vac-npm-start-'));
  });
  afterAll(async () => {
    // npm runs sh, which runs the build and then node: the negative pid reaches the whole group.
    if (child?.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same document as the app the tests compile', async () => {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: String(port),
      SQLITE_PATH: join(dir, 'service.sqlite'),
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
    };
    delete env.DATABASE_URL;
    delete env.REDIS_URL;
    // A fresh SQLite file, migrated at start as `npm start` does (a MySQL run's setup turns that off).
    delete env.DB_MIGRATIONS_RUN;
    child = spawn('npm', ['start', '--silent'], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 270_000;
    for (;;) {
      const up = await fetch(`${base}/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (up) break;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`npm start did not come up: ${stderr}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const served = (await (await fetch(`${base}/docs-json`)).json()) as OpenApiDoc;
    expect(Object.keys(served.components.schemas.CreateKeyDto.properties ?? {})).toEqual(
      expect.arrayContaining(['user_name', 'user_email']),
    );
    const compiled = (await ctx.http().get('/docs-json').expect(200)).body as OpenApiDoc;
    // Whole documents: every schema, bound, example and operation. The plugin's options in
    // nest-cli.json and in test/setup/swagger-transformer.js must be the same.
    expect(served).toEqual(compiled);
  }, 300_000);
});
