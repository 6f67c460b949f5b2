import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..', '..');

/** The modules a fresh Node process loads when it imports the package (its source, through the tsconfig path). */
function modulesLoadedBy(entry: string): string[] {
  const script = `require(${JSON.stringify(entry)}); process.stdout.write(JSON.stringify(Object.keys(require.cache)));`;
  const out = execFileSync(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', '-e', script],
    { cwd: root, encoding: 'utf8', env: { ...process.env, TS_NODE_PROJECT: 'tsconfig.json' } },
  );
  return JSON.parse(out) as string[];
}

describe('@voice-assistant-config/client', () => {
  it('loads neither Nest nor TypeORM', () => {
    const loaded = modulesLoadedBy('@voice-assistant-config/client');
    expect(loaded.some((path) => path.includes(join('packages', 'client', 'src', 'index.ts')))).toBe(true);
    expect(loaded.filter((path) => /node_modules[\\/](@nestjs|typeorm)[\\/]/.test(path))).toEqual(
      [],
    );
  }, 60_000);
});
