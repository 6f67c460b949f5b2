/**
 * Writes the OpenAPI document of the built app (dist/, compiled with the @nestjs/swagger plugin)
 * to a file, without listening: `node`-free of any database but a throw-away SQLite file.
 *
 *   npm run build && ts-node --transpile-only scripts/openapi-document.ts <out.json>
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { INestApplication } from '@nestjs/common';

const root = resolve(__dirname, '..');

export async function writeOpenApiDocument(out: string): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-document-'));
  // Entity column types are chosen at import time: the mode must be set before dist/ is loaded.
  delete process.env.DATABASE_URL;
  delete process.env.REDIS_URL;
  process.env.SQLITE_PATH = join(dir, 'document.sqlite');
  process.env.LOG_LEVEL = 'silent';
  process.env.ADMIN_API_KEY ??= 'openapi-document-admin-key-0123456789';
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { NestFactory } = require('@nestjs/core') as typeof import('@nestjs/core');
  const { AppModule } = require(
    join(root, 'dist/app.module'),
  ) as typeof import('../src/app.module');
  const { buildOpenApiDocument } = require(
    join(root, 'dist/bootstrap/openapi'),
  ) as typeof import('../src/bootstrap/openapi');
  /* eslint-enable @typescript-eslint/no-require-imports */
  let app: INestApplication | undefined;
  try {
    app = await NestFactory.create(AppModule.register(), { bodyParser: false, logger: false });
    writeFileSync(out, `${JSON.stringify(buildOpenApiDocument(app), null, 2)}\n`);
  } finally {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const out = process.argv[2];
  if (!out) throw new Error('usage: openapi-document.ts <out.json>');
  writeOpenApiDocument(resolve(out)).catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
