import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseEnv } from 'node:util';
import { loadAppConfig } from './app-config';

/** `.env.example` as `process.loadEnvFile` would read it after `cp .env.example .env`. */
const EXAMPLE = readFileSync(join(__dirname, '../../.env.example'), 'utf8');

/** Each commented `# NAME=value` line: the value the file says is the default. */
function documentedDefaults(): [string, string][] {
  return [...EXAMPLE.matchAll(/^# ([A-Z][A-Z0-9_]*)=(\S*)$/gm)].map((m) => [m[1], m[2]]);
}

describe('.env.example', () => {
  it('changes nothing when copied to .env: the same configuration as no file at all', () => {
    const copied = parseEnv(EXAMPLE) as NodeJS.ProcessEnv;
    expect(loadAppConfig(copied)).toEqual(loadAppConfig({}));
    // Nothing set at all: every line is a comment.
    expect(Object.keys(copied)).toEqual([]);
  });

  it('gives the true default for every variable it lists', () => {
    const defaults = documentedDefaults();
    expect(defaults.map(([name]) => name)).toEqual(
      expect.arrayContaining(['PORT', 'QUEUE_PREFIX', 'NODE_ENV', 'SECRETS_ENCRYPTION_KEY']),
    );
    for (const [name, value] of defaults) {
      const config = loadAppConfig({ [name]: value });
      expect({ name, config }).toEqual({ name, config: loadAppConfig({}) });
    }
  });

  it('names Bull’s own prefix, the one a plain producer uses', () => {
    expect(documentedDefaults()).toContainEqual(['QUEUE_PREFIX', 'bull']);
  });
});
