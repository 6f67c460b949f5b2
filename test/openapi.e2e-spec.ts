import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script, createContext } from 'node:vm';
import SwaggerParser from '@apidevtools/swagger-parser';
import { Body, Controller, Post } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Public } from '../src/auth/public.decorator';
import { createTestApp, type TestContext } from './utils/create-test-app';
import { freePort } from './utils/free-port';

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

  it('serves the Swagger UI page', async () => {
    const res = await ctx.http().get('/docs').expect(200);
    expect(res.text).toContain('swagger-ui-init.js');
  });
});

interface OpenApiDoc {
  components: { schemas: Record<string, { properties?: object }> };
}

function withoutImportedConstraints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutImportedConstraints);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !['minimum', 'maximum', 'enum'].includes(key))
        .map(([key, item]) => [key, withoutImportedConstraints(item)]),
    );
  }
  return value;
}

describe('OpenAPI document under `npm start` (ts-node, no compiler plugin)', () => {
  let ctx: TestContext;
  let child: ChildProcess | undefined;
  let dir: string;

  beforeAll(async () => {
    ctx = await createTestApp();
    dir = mkdtempSync(join(tmpdir(), 'vac-ts-node-'));
  });
  afterAll(async () => {
    child?.kill('SIGTERM');
    await ctx.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves the same document as the compiled app', async () => {
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
    // What `npm start` runs.
    child = spawn(
      process.execPath,
      [require.resolve('ts-node/dist/bin'), '--transpile-only', 'src/main.ts'],
      {
        env,
        stdio: ['ignore', 'ignore', 'pipe'],
      },
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const base = `http://127.0.0.1:${port}`;
    const deadline = Date.now() + 150_000;
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
    // src/metadata.ts cannot carry bounds and enums taken from constants of other files; all else matches.
    try {
      expect(withoutImportedConstraints(served)).toEqual(withoutImportedConstraints(compiled));
    } catch (error) {
      throw new Error(
        `src/metadata.ts does not describe the DTOs: run \`npm run openapi:metadata\` and commit it.\n${(error as Error).message}`,
      );
    }
  }, 180_000);
});
