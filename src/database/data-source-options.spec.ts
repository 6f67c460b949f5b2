import { existsSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataSourceOptions } from './data-source-options';

describe(dataSourceOptions.name, () => {
  const dir = mkdtempSync(join(tmpdir(), 'vac-sqlite-mode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const settings = (sqlitePath: string) => ({
    driver: 'better-sqlite3' as const,
    url: null,
    sqlitePath,
    poolSize: 10,
    migrationsRun: true,
  });

  it('creates the embedded database file readable by its owner only (0600)', () => {
    const file = join(dir, 'nested', 'fresh.sqlite');
    dataSourceOptions(settings(file));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('narrows a file an older start left readable by others', () => {
    const file = join(dir, 'old.sqlite');
    writeFileSync(file, '', { mode: 0o644 });
    dataSourceOptions(settings(file));
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('opens SQLite in memory for :memory:, creating no file of that name', () => {
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      expect(dataSourceOptions(settings(':memory:'))).toMatchObject({ database: ':memory:' });
      expect(existsSync(join(dir, ':memory:'))).toBe(false);
    } finally {
      process.chdir(cwd);
    }
  });
});
