import { randomUUID } from 'node:crypto';
import { IdempotencyKeyEntity } from '../../../src/idempotency/idempotency-key.entity';
import { IdempotencyService } from '../../../src/idempotency/idempotency.service';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite, type TestUser } from '../../utils/create-test-app';

describe('Idempotency-Key (e2e)', () => {
  const suite = appSuite({ users: ['alice', 'bob'] });

  const create = (user: TestUser, key: string | undefined, body: object = assistantBody()) => {
    const req = suite.ctx.http().post('/assistant/create').set(user.auth);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const count = async (user: TestUser) =>
    (await suite.ctx.http().get('/assistant/list').set(user.auth).expect(200)).body.data
      .total as number;

  it('answers a retried create with the kept response and creates one assistant', async () => {
    const key = `create-${randomUUID()}`;
    const before = await count(suite.alice);
    const first = await create(suite.alice, key).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await create(suite.alice, key).expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(again.body.data.assistant_id).toBe(first.body.data.assistant_id);
    expect(await count(suite.alice)).toBe(before + 1);
  });

  it('without a key, two creates make two assistants (the header is opt-in)', async () => {
    const before = await count(suite.alice);
    await create(suite.alice, undefined).expect(200);
    await create(suite.alice, undefined).expect(200);
    expect(await count(suite.alice)).toBe(before + 2);
  });

  it('answers 422 to the key with another body or another path, and keeps the first response', async () => {
    const key = `mismatch-${randomUUID()}`;
    const first = await create(suite.alice, key).expect(200);
    const other = await create(suite.alice, key, assistantBody({ assistant_name: 'Other' })).expect(
      422,
    );
    expect(other.body.success).toBe(false);
    expect(other.body.message).toMatch(/Idempotency-Key/);
    const id = first.body.data.assistant_id as string;
    await suite.ctx
      .http()
      .delete(`/assistant/delete/${id}`)
      .set(suite.alice.auth)
      .set('Idempotency-Key', key)
      .expect(422);
    const again = await create(suite.alice, key).expect(200);
    expect(again.body.data.assistant_id).toBe(id);
  });

  it('runs two concurrent requests with one key once: one creates, the other waits its turn', async () => {
    const key = `race-${randomUUID()}`;
    const before = await count(suite.alice);
    const answers = await Promise.all([
      create(suite.alice, key),
      create(suite.alice, key),
      create(suite.alice, key),
    ]);
    const statuses = answers.map((r) => r.status).sort();
    // Each answer is the created assistant (run or replayed) or 409 while the first still runs.
    for (const status of statuses) expect([200, 409]).toContain(status);
    const ids = new Set(
      answers.filter((r) => r.status === 200).map((r) => r.body.data.assistant_id as string),
    );
    expect(ids.size).toBe(1);
    expect(await count(suite.alice)).toBe(before + 1);
    const later = await create(suite.alice, key).expect(200);
    expect(ids.has(later.body.data.assistant_id as string)).toBe(true);
  });

  it('keeps a 4xx answer too, and replays it', async () => {
    const key = `invalid-${randomUUID()}`;
    const body = assistantBody({ assistant_name: '' });
    const first = await create(suite.alice, key, body).expect(400);
    const again = await create(suite.alice, key, body).expect(400);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('scopes keys to the caller: the same key is free for another user', async () => {
    const key = `shared-${randomUUID()}`;
    const forAlice = await create(suite.alice, key).expect(200);
    const forBob = await create(suite.bob, key).expect(200);
    expect(forBob.headers['idempotent-replayed']).toBeUndefined();
    expect(forBob.body.data.assistant_id).not.toBe(forAlice.body.data.assistant_id);
  });

  it('covers PATCH and DELETE: a retried delete answers as the first did', async () => {
    const created = await create(suite.alice, undefined).expect(200);
    const id = created.body.data.assistant_id as string;
    const key = `delete-${randomUUID()}`;
    const del = () =>
      suite.ctx
        .http()
        .delete(`/assistant/delete/${id}`)
        .set(suite.alice.auth)
        .set('Idempotency-Key', key);
    const first = await del().expect(200);
    const again = await del().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    // Without the key the retry runs again and finds nothing.
    await suite.ctx.http().delete(`/assistant/delete/${id}`).set(suite.alice.auth).expect(404);
  });

  it.each([
    ['too long', 'k'.repeat(256)],
    ['not printable ASCII', 'clé-é'],
    ['empty', ''],
  ])('answers 400 naming the header when the key is %s', async (_, key) => {
    const res = await create(suite.alice, key).expect(400);
    expect(res.body.data.errors).toEqual([
      { field: 'Idempotency-Key', message: expect.stringMatching(/printable ASCII/) },
    ]);
  });

  it('takes over a key whose 24 hours are over, and purges expired keys', async () => {
    const key = `expired-${randomUUID()}`;
    const first = await create(suite.alice, key).expect(200);
    const keys = suite.ctx.dataSource.getRepository(IdempotencyKeyEntity);
    const past = new Date(Date.now() - 60_000);
    await keys.update({ owner_id: suite.alice.userId, idempotency_key: key }, { expires_at: past });
    const fresh = await create(suite.alice, key).expect(200);
    expect(fresh.headers['idempotent-replayed']).toBeUndefined();
    expect(fresh.body.data.assistant_id).not.toBe(first.body.data.assistant_id);

    const stale = `stale-${randomUUID()}`;
    await create(suite.alice, stale).expect(200);
    await keys.update(
      { owner_id: suite.alice.userId, idempotency_key: stale },
      { expires_at: past },
    );
    expect(await suite.ctx.app.get(IdempotencyService).purgeExpired()).toBeGreaterThanOrEqual(1);
    expect(await keys.countBy({ owner_id: suite.alice.userId, idempotency_key: stale })).toBe(0);
    expect(await keys.countBy({ owner_id: suite.alice.userId, idempotency_key: key })).toBe(1);
  });

  it('documents the header, the replay marker and the 409 and 422 on every POST, PATCH and DELETE', async () => {
    const doc = (await suite.ctx.http().get('/docs-json').expect(200)).body as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: object }>>;
    };
    const create = doc.paths['/assistant/create'].post;
    expect(create.parameters?.map((p) => p.name)).toContain('Idempotency-Key');
    expect(Object.keys(create.responses)).toEqual(expect.arrayContaining(['409', '422']));
    expect(doc.paths['/assistant/list'].get.parameters?.map((p) => p.name) ?? []).not.toContain(
      'Idempotency-Key',
    );
  });
});
