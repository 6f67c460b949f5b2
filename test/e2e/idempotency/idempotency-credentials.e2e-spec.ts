import { randomBytes, randomUUID } from 'node:crypto';
import { IdempotencyKeyEntity } from '../../../src/idempotency/idempotency-key.entity';
import { SecretCipher } from '../../../src/secret/secret-cipher';
import { appSuite } from '../../utils/create-test-app';

const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_API_KEY!}` };

/**
 * A kept response that holds a credential (a new API key, a rotated signing secret) is stored
 * encrypted under SECRETS_ENCRYPTION_KEY, never in clear, and still answers the retry.
 */
describe('Idempotency-Key on routes that answer a credential (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });
  const keptRow = (owner: string, key: string) =>
    suite.ctx.dataSource
      .getRepository(IdempotencyKeyEntity)
      .findOneByOrFail({ owner_id: owner, idempotency_key: key });
  /** Alice rotates her webhook signing secret with `key`. */
  const rotateWith = (key: string) =>
    suite.ctx
      .http()
      .post('/auth/webhook-secret/rotate')
      .set(suite.alice.auth)
      .set('Idempotency-Key', key);

  it('keeps the created API key sealed and replays it to the retry', async () => {
    const key = `create-key-${randomUUID()}`;
    const body = { user_name: 'Sealed', user_email: `sealed-${randomUUID()}@example.com` };
    const create = () =>
      suite.ctx.http().post('/auth/create-key').set(ADMIN).set('Idempotency-Key', key).send(body);
    const first = await create().expect(200);
    const apiKey = first.body.data.api_key as string;
    expect(apiKey).toMatch(/^vac_/);

    const row = await keptRow('operator', key);
    expect(row.response_body).toMatch(/^sealed:/);
    expect(row.response_body).not.toContain(apiKey);
    expect(row.response_body).not.toContain(apiKey.slice(4, 20));

    const again = await create().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('keeps a rotated webhook signing secret sealed', async () => {
    const key = `rotate-${randomUUID()}`;
    const rotate = () => rotateWith(key);
    const first = await rotate().expect(200);
    const secret = first.body.data.secret as string;
    expect(secret).toMatch(/^whsec_/);
    const row = await keptRow(suite.alice.userId, key);
    expect(row.response_body).toMatch(/^sealed:/);
    expect(row.response_body).not.toContain(secret);
    const again = await rotate().expect(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body.data.secret).toBe(secret);
  });

  it('runs a retry again when its kept response was sealed under a key since replaced, rather than failing it', async () => {
    const key = `old-key-${randomUUID()}`;
    const rotate = () => rotateWith(key);
    const first = await rotate().expect(200);
    // As `secrets:rekey` leaves it: sealed under the previous key.
    const previous = SecretCipher.fromBase64(randomBytes(32).toString('base64'));
    await suite.ctx.dataSource.getRepository(IdempotencyKeyEntity).update(
      { owner_id: suite.alice.userId, idempotency_key: key },
      {
        response_body: `sealed:${previous.encrypt('{}', suite.alice.userId, `idempotency:${key}`)}`,
      },
    );

    const again = await rotate().expect(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(again.body.data.secret).toMatch(/^whsec_/);
    expect(again.body.data.secret).not.toBe(first.body.data.secret);
  });
});
