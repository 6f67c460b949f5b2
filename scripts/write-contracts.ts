/** Writes `packages/client/schemas/<queue>.schema.json` from the runtime schemas: `npm run contracts`. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { jsonSchemaFiles } from '../src/contracts';

const dir = join(__dirname, '..', 'packages', 'client', 'schemas');
mkdirSync(dir, { recursive: true });
for (const [name, text] of Object.entries(jsonSchemaFiles())) {
  writeFileSync(join(dir, name), text);
  console.log(`wrote packages/client/schemas/${name}`);
}
