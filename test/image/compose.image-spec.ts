/**
 * What can be checked of the image and the compose file without a Docker engine: the compose file
 * parses, every service starts only once what it needs is healthy (or, for the migration, done),
 * each service the image runs names a command the build provides, and the Dockerfile keeps its
 * production settings (Node 22, non-root, a writable data volume, a health check).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
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

const compose = load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as {
  services: Record<string, Service>;
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
    expect(compose.services.worker.depends_on).toEqual({ api: { condition: 'service_healthy' } });
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
});
