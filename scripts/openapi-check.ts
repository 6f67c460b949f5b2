/**
 * Checks the built service's OpenAPI document the way its consumers use it: it must be valid
 * OpenAPI 3 (swagger-parser), clean under Redocly's recommended rules, and openapi-typescript must
 * generate types from it with which examples/openapi-client/client.ts type-checks.
 *
 *   npm run build && npm run test:client
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { createConfig, lint } from '@redocly/openapi-core';
import openapiTS, { astToString } from 'openapi-typescript';
import { writeOpenApiDocument } from './openapi-document';

const root = resolve(__dirname, '..');
const clientDir = join(root, 'examples/openapi-client');
const generatedDir = join(clientDir, 'generated');

function run(step: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`${step} failed`);
}

async function main(): Promise<void> {
  mkdirSync(generatedDir, { recursive: true });
  const documentPath = join(generatedDir, 'openapi.json');
  await writeOpenApiDocument(documentPath);

  await SwaggerParser.validate(documentPath);
  console.log('swagger-parser: valid OpenAPI 3');

  const config = await createConfig({ extends: ['recommended'], rules: { 'info-license': 'off' } });
  const problems = await lint({ ref: documentPath, config });
  for (const problem of problems) {
    const where = problem.location.map((l) => l.pointer).join(', ');
    console.log(`redocly ${problem.severity} ${problem.ruleId}: ${problem.message} (${where})`);
  }
  const errors = problems.filter((p) => p.severity === 'error');
  if (errors.length > 0) throw new Error(`redocly lint: ${errors.length} error(s)`);
  console.log(`redocly lint: no errors (${problems.length} warning(s))`);

  const bin = (name: string) => join(root, 'node_modules/.bin', name);
  // A `default` makes a request field optional, not required.
  const ast = await openapiTS(pathToFileURL(documentPath), { defaultNonNullable: false });
  writeFileSync(join(generatedDir, 'api.d.ts'), astToString(ast));
  console.log('openapi-typescript: types generated');
  run('type-checking the example client', bin('tsc'), ['-p', join(clientDir, 'tsconfig.json')]);
  console.log('example client type-checks against the generated types');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
