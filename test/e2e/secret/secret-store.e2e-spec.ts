/**
 * The secret store: `/secret/*` routes, write-only values, names unique per user, rotation.
 */
import { ISO } from '../../fixtures/formats';
import { secretApi } from '../../api/secret-api';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';

describe('secret store (/secret)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let other: TestUser;

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    other = await ctx.newUser();
  });
  afterAll(() => ctx.close());

  it('creates a secret and never returns its value', async () => {
    const res = await ctx
      .http()
      .post('/secret/create')
      .set(user.auth)
      .send({ secret_name: 'CRM_TOKEN', value: 'crm-value-1' })
      .expect(200);
    expect(res.body.data).toEqual({
      secret_name: 'CRM_TOKEN',
      version: 1,
      allowed_origins: null,
      created_at: expect.stringMatching(ISO),
      updated_at: expect.stringMatching(ISO),
      last_used_at: null,
      used_by: [],
    });
    expect(res.text).not.toContain('crm-value-1');
  });

  it('refuses a name taken by the same user (409) but not by another user', async () => {
    await secretApi(ctx, user).create('DUP_NAME', 'a');
    const dup = await ctx
      .http()
      .post('/secret/create')
      .set(user.auth)
      .send({ secret_name: 'DUP_NAME', value: 'b' })
      .expect(409);
    expect(dup.body.data).toEqual({ code: 'conflict', secret_name: 'DUP_NAME' });
    await secretApi(ctx, other).create('DUP_NAME', 'c');
  });

  it.each([
    [{ secret_name: 'lower', value: 'v' }, 'secret_name'],
    [{ secret_name: '1ABC', value: 'v' }, 'secret_name'],
    [{ secret_name: `A${'B'.repeat(64)}`, value: 'v' }, 'secret_name'],
    [{ value: 'v' }, 'secret_name'],
    [{ secret_name: 'OK_NAME', value: '' }, 'value'],
    [{ secret_name: 'OK_NAME', value: 'x'.repeat(8193) }, 'value'],
    [{ secret_name: 'OK_NAME', value: 'line\r\nbreak' }, 'value'],
    [{ secret_name: 'OK_NAME', value: 42 }, 'value'],
    [{ secret_name: 'OK_NAME' }, 'value'],
    [{ secret_name: 'OK_NAME', value: 'v', extra: 1 }, 'extra'],
  ])('400 naming the field (case %#)', async (body, field) => {
    const res = await ctx.http().post('/secret/create').set(user.auth).send(body).expect(400);
    expect(res.body.data.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(res.text).not.toContain('line\r\nbreak');
  });

  it('accepts a value of 8192 characters', async () => {
    await secretApi(ctx, user).create('LONG_VALUE', 'x'.repeat(8192));
  });

  it('rotates: version + 1, updated_at moves, the value stays hidden', async () => {
    const created = await secretApi(ctx, user).create('ROTATED', 'first-value');
    await new Promise((r) => setTimeout(r, 5));
    const res = await ctx
      .http()
      .patch('/secret/update/ROTATED')
      .set(user.auth)
      .send({ value: 'second-value' })
      .expect(200);
    expect(res.body.data.version).toBe(2);
    expect(res.body.data.created_at).toBe(created.created_at);
    expect(res.body.data.updated_at > created.updated_at).toBe(true);
    expect(res.text).not.toContain('second-value');
    expect((await secretApi(ctx, user).details('ROTATED')).version).toBe(2);
  });

  it('lists the caller’s secrets only, newest first', async () => {
    const res = await ctx.http().get('/secret/list').set(other.auth).expect(200);
    expect(res.body.data.items.map((s: { secret_name: string }) => s.secret_name)).toEqual([
      'DUP_NAME',
    ]);
    expect(res.body.data.total).toBe(1);
    expect(res.text).not.toContain('"c"');
  });

  it('another user’s secret is 404 on details, update and delete', async () => {
    await secretApi(ctx, user).create('MINE_ONLY', 'v');
    await ctx.http().get('/secret/details/MINE_ONLY').set(other.auth).expect(404);
    await ctx
      .http()
      .patch('/secret/update/MINE_ONLY')
      .set(other.auth)
      .send({ value: 'x' })
      .expect(404);
    await ctx.http().delete('/secret/delete/MINE_ONLY').set(other.auth).expect(404);
    expect((await secretApi(ctx, user).details('MINE_ONLY')).version).toBe(1);
  });

  it('400 naming secret_name for a malformed name in the path', async () => {
    const res = await ctx.http().get('/secret/details/not-a-name').set(user.auth).expect(400);
    expect(res.body.data.errors).toEqual([expect.objectContaining({ field: 'secret_name' })]);
  });

  it('deletes an unreferenced secret', async () => {
    await secretApi(ctx, user).create('GONE_SOON', 'v');
    const res = await ctx.http().delete('/secret/delete/GONE_SOON').set(user.auth).expect(200);
    expect(res.body.data).toEqual({ secret_name: 'GONE_SOON' });
    await ctx.http().get('/secret/details/GONE_SOON').set(user.auth).expect(404);
  });

  it('a key without the config scope gets 403', async () => {
    const runtimeOnly = await ctx.newUser(['runtime']);
    await ctx.http().get('/secret/list').set(runtimeOnly.auth).expect(403);
  });
});
