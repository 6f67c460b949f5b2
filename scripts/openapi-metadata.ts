/**
 * Writes src/metadata.ts: what the @nestjs/swagger CLI plugin adds to DTOs and controllers at
 * `nest build`, as a file that `ts-node` (which runs no compiler plugin) loads at boot, so
 * `npm start` serves the same document as the build. `--check` fails when the file is stale.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PluginMetadataGenerator } from '@nestjs/cli/lib/compiler/plugins/plugin-metadata-generator';
import type { ReadonlyVisitor as ReadonlyVisitorClass } from '@nestjs/swagger/dist/plugin';

// The package exports the plugin as `@nestjs/swagger/plugin`, whose types live under dist/.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { ReadonlyVisitor } = require('@nestjs/swagger/plugin') as {
  ReadonlyVisitor: typeof ReadonlyVisitorClass;
};

const root = resolve(__dirname, '..');
const FILENAME = 'metadata.ts';
// The generator resolves the tsconfig against the working directory.
process.chdir(root);

function pluginOptions(): Record<string, unknown> {
  const nestCli = JSON.parse(readFileSync(join(root, 'nest-cli.json'), 'utf8')) as {
    compilerOptions: { plugins: { name: string; options: Record<string, unknown> }[] };
  };
  const plugin = nestCli.compilerOptions.plugins.find((p) => p.name === '@nestjs/swagger');
  if (!plugin) throw new Error('nest-cli.json has no @nestjs/swagger plugin');
  return plugin.options;
}

function generate(outputDir: string): string {
  new PluginMetadataGenerator().generate({
    visitors: [new ReadonlyVisitor({ ...pluginOptions(), pathToSource: join(root, 'src') })],
    outputDir,
    filename: FILENAME,
    tsconfigPath: 'tsconfig.build.json',
    printDiagnostics: false,
  });
  return readFileSync(join(outputDir, FILENAME), 'utf8');
}

if (process.argv.includes('--check')) {
  const dir = mkdtempSync(join(tmpdir(), 'openapi-metadata-'));
  try {
    const fresh = generate(dir);
    const committed = readFileSync(join(root, 'src', FILENAME), 'utf8');
    if (fresh !== committed) {
      process.stderr.write(
        `src/${FILENAME} is stale: run \`npm run openapi:metadata\` and commit it.\n`,
      );
      process.exit(1);
    }
    process.stdout.write(`src/${FILENAME} is up to date\n`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  generate(join(root, 'src'));
  process.stdout.write(`wrote src/${FILENAME}\n`);
}
