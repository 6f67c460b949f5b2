import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { Controller, Get } from '@nestjs/common';
import { Public } from '../../../src/auth/public.decorator';
import { appSuite } from '../../utils/create-test-app';
import { onCluster, redisConfigured } from '../../utils/test-redis';

@Controller('__test')
class ThrowingController {
  @Public()
  @Get('boom')
  boom(): never {
    throw new Error('SELECT secret FROM users -- internal detail');
  }
}

const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_API_KEY}` };

describe('Foundation (e2e)', () => {
  const suite = appSuite({ users: ['user'], app: { controllers: [ThrowingController] } });

  describe('health and docs', () => {
    it('GET /health answers 200 in the envelope without a key', async () => {
      const res = await suite.ctx.http().get('/health').expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.status).toBe('ok');
      expect(res.body.data.details.database.status).toBe('up');
      expect(res.body.data.details.redis.mode).toBe(
        onCluster ? 'cluster' : redisConfigured ? 'redis' : 'embedded',
      );      // Embedded mode has no Redis: it is neither up nor down.
      expect(res.body.data.details.redis.status).toBe(redisConfigured ? 'up' : 'not_used');
    });

    it('serves the OpenAPI document with the bearer scheme and envelope schemas', async () => {
      const res = await suite.ctx.http().get('/docs-json').expect(200);
      expect(res.body.components.securitySchemes.bearer).toMatchObject({
        type: 'http',
        scheme: 'bearer',
      });
      const createKey = res.body.paths['/auth/create-key'].post;
      expect(
        createKey.responses['200'].content['application/json'].schema.properties.data.$ref,
      ).toBe('#/components/schemas/CreatedKeyDto');
      expect(res.body.components.schemas.CreateKeyDto.properties.user_email).toBeDefined();
    });
  });

  describe('authentication', () => {
    it.each([
      ['no header', undefined],
      ['a bad key', 'Bearer vac_not-a-real-key'],
      ['a non-bearer scheme', `Basic ${Buffer.from('a:b').toString('base64')}`],
    ])('answers 401 in the envelope with %s', async (_, header) => {
      const req = suite.ctx.http().get('/auth/check-key');
      if (header) req.set('Authorization', header);
      const res = await req.expect(401);
      expect(res.body).toEqual({
        success: false,
        message: 'Missing or invalid API key',
        data: { code: 'unauthorized' },
      });
    });

    it('returns the caller for a valid key', async () => {
      const res = await suite.ctx.http().get('/auth/check-key').set(suite.user.auth).expect(200);
      expect(res.body.success).toBe(true);
      expect(res.body.data.user_id).toBe(suite.user.userId);
    });

    it('creates keys only with the admin bearer', async () => {
      const body = { user_name: 'Ops', user_email: `ops-${Date.now()}@example.com` };
      await suite.ctx.http().post('/auth/create-key').send(body).expect(401);
      await suite.ctx.http().post('/auth/create-key').set(suite.user.auth).send(body).expect(401);
      const res = await suite.ctx.http().post('/auth/create-key').set(ADMIN).send(body).expect(200);
      expect(res.body.data.api_key).toMatch(/^vac_[A-Za-z0-9_-]{43}$/);
    });

    it('gives a second key for an existing email to the same user', async () => {
      const email = `twice-${Date.now()}@example.com`;
      const first = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'A', user_email: email })
        .expect(200);
      const second = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'A', user_email: email.toUpperCase() })
        .expect(200);
      expect(second.body.data.user_id).toBe(first.body.data.user_id);
      expect(second.body.data.api_key).not.toBe(first.body.data.api_key);
    });

    it('rejects a bad email with 400 naming the field', async () => {
      const res = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'A', user_email: 'nope' })
        .expect(400);
      expect(res.body.data.errors).toEqual([
        { field: 'user_email', message: expect.stringContaining('email') },
      ]);
    });

    it('stores only the SHA-256 of a key', async () => {
      const rows: { key_hash: string; key_prefix: string }[] = await suite.ctx.dataSource.query(
        'SELECT key_hash, key_prefix FROM api_keys WHERE user_id = ?',
        [suite.user.userId],
      );
      expect(rows).toHaveLength(1);
      expect(rows[0].key_hash).toBe(createHash('sha256').update(suite.user.apiKey).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(suite.user.apiKey);
      expect(rows[0].key_prefix).toBe(suite.user.apiKey.slice(0, 8));
    });

    it('revokes a key', async () => {
      const other = await suite.ctx.newUser();
      const keys = await suite.ctx.http().get('/auth/keys').set(other.auth).expect(200);
      expect(keys.body.data).toMatchObject({ total: 1, page: 1, limit: 50 });
      expect(keys.body.data.items).toHaveLength(1);
      await suite.ctx
        .http()
        .delete(`/auth/keys/${keys.body.data.items[0].api_key_id}`)
        .set(suite.user.auth)
        .expect(404);
      await suite.ctx
        .http()
        .delete(`/auth/keys/${keys.body.data.items[0].api_key_id}`)
        .set(other.auth)
        .expect(200);
      await suite.ctx.http().get('/auth/check-key').set(other.auth).expect(401);
    });
  });

  describe('envelope and errors', () => {
    it('404s an unknown route in the envelope', async () => {
      const res = await suite.ctx.http().get('/no/such/route').set(suite.user.auth).expect(404);
      expect(res.body).toEqual({
        success: false,
        message: 'Route not found',
        data: { code: 'route_not_found' },
      });
    });

    it('422s unparseable JSON', async () => {
      const res = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .set('Content-Type', 'application/json')
        .send('{"user_name": ')
        .expect(422);
      expect(res.body).toEqual({
        success: false,
        message: 'Request body is not valid JSON',
        data: { code: 'unprocessable_entity' },
      });
    });

    it.each([['[1,2]'], ['"text"'], ['42'], ['null']])(
      '422s a non-object JSON body %s',
      async (raw) => {
        const res = await suite.ctx
          .http()
          .post('/auth/create-key')
          .set(ADMIN)
          .set('Content-Type', 'application/json')
          .send(raw);
        expect(res.status).toBe(422);
        expect(res.body.success).toBe(false);
      },
    );

    it('413s a body over 1 MB', async () => {
      const res = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'x'.repeat(1024 * 1024 + 10), user_email: 'a@example.com' })
        .expect(413);
      expect(res.body.success).toBe(false);
    });

    it('415s a body that is not JSON', async () => {
      await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .set('Content-Type', 'text/plain')
        .send('hello')
        .expect(415);
    });

    it('rejects unknown body fields with 400 naming them', async () => {
      const res = await suite.ctx
        .http()
        .post('/auth/create-key')
        .set(ADMIN)
        .send({ user_name: 'A', user_email: 'a@example.com', is_admin: true })
        .expect(400);
      expect(res.body.data.errors).toEqual([{ field: 'is_admin', message: 'unknown field' }]);
    });

    it('500s with a generic message and an error id, never internals', async () => {
      const res = await suite.ctx.http().get('/__test/boom').expect(500);
      expect(res.body.success).toBe(false);
      expect(res.body.message).toBe('Internal server error');
      expect(res.body.data.error_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(JSON.stringify(res.body)).not.toMatch(/SELECT|stack|Error:/);
    });

    it('echoes or assigns a request id', async () => {
      const res = await suite.ctx.http().get('/health').set('X-Request-Id', 'req-123').expect(200);
      expect(res.headers['x-request-id']).toBe('req-123');
    });
  });

  describe('webhook signing secret', () => {
    it('creates, returns and rotates a whsec_ secret', async () => {
      const first = await suite.ctx
        .http()
        .get('/auth/webhook-secret')
        .set(suite.user.auth)
        .expect(200);
      expect(first.body.data.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{40,}$/);
      const again = await suite.ctx
        .http()
        .get('/auth/webhook-secret')
        .set(suite.user.auth)
        .expect(200);
      expect(again.body.data.secret).toBe(first.body.data.secret);
      const rotated = await suite.ctx
        .http()
        .post('/auth/webhook-secret/rotate')
        .set(suite.user.auth)
        .expect(200);
      expect(rotated.body.data.secret).not.toBe(first.body.data.secret);
      expect(Date.parse(rotated.body.data.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    });
  });
});

describe('Boot-time configuration', () => {
  /** Runs `script` under ts-node with `env` (over this process's environment) until it exits. */
  const runTs = (script: string[], env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, ['-r', 'ts-node/register/transpile-only', ...script], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 60_000,
    });

  it('exits non-zero naming the bad variable', () => {
    const result = runTs(['src/main.ts'], { PORT: 'not-a-port', DATABASE_URL: '', REDIS_URL: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('PORT');
  });

  it.each(['src/main.ts', 'src/worker.ts'])(
    '%s names a bad variable in its one message, before any module is built (no stack trace)',
    (entry) => {
      const result = runTs([entry], { PORT: 'not-a-port', DATABASE_URL: '', REDIS_URL: '' });
      expect(result.status).toBe(1);
      expect(result.stderr).toMatch(/^Invalid environment configuration:\n {2}PORT: /);
      expect(result.stderr).not.toMatch(/^\s+at /m);
    },
  );

  it('refuses a split role without Redis', () => {
    const result = runTs(['src/main.ts'], { APP_ROLE: 'api', DATABASE_URL: '', REDIS_URL: '' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('APP_ROLE');
  });

  it('creates a key from the operator CLI, and refuses a bad email', () => {
    const sqlite = `./data/test/cli-${process.pid}-${Date.now()}.sqlite`;
    const env = {
      DATABASE_URL: '',
      REDIS_URL: '',
      SQLITE_PATH: sqlite,
      DB_MIGRATIONS_RUN: 'true',
      LOG_LEVEL: 'silent',
    };
    const run = (...args: string[]) => runTs(['src/cli.ts', 'create-key', ...args], env);
    const ok = run('--name', 'Ops', '--email', 'ops@example.com');
    expect({ status: ok.status, stderr: ok.stderr }).toEqual({ status: 0, stderr: '' });
    const created = JSON.parse(ok.stdout.slice(0, ok.stdout.lastIndexOf('}') + 1)) as {
      api_key: string;
      user_id: string;
    };
    expect(created.api_key).toMatch(/^vac_[A-Za-z0-9_-]{43}$/);
    // A usage error: exit code 2, as for any invalid option (test/cli.e2e-spec.ts).
    const bad = run('--name', 'Ops', '--email', 'not-an-email');
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('user_email');
  });
});
