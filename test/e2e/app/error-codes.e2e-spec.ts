import { ERROR_CODES, ERROR_STATUSES } from '../../../src/common/errors/error-statuses';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite } from '../../utils/create-test-app';

const ADMIN = { Authorization: `Bearer ${process.env.ADMIN_API_KEY}` };

/**
 * Every error body carries `data.code`, a stable snake_case string from the status table, beside
 * what the error adds (`errors`, `error_id`…). (The OpenAPI conformance check of every e2e
 * response also requires it: the error envelope's schema lists `code` as required.)
 */
describe('Error codes (e2e)', () => {
  const suite = appSuite({ users: ['user'] });

  it('documents data.code in the error envelope: required, one of the table’s codes', async () => {
    const doc = await suite.ctx.http().get('/docs-json').expect(200);
    const data = doc.body.components.schemas.ErrorEnvelopeDto.properties.data;
    expect(data.required).toEqual(['code']);
    expect(data.properties.code.enum).toEqual([...ERROR_CODES]);
    for (const code of ERROR_CODES) expect(code).toMatch(/^[a-z]+(_[a-z]+)*$/);
    const example =
      doc.body.paths['/assistant/create'].post.responses['400'].content['application/json'].example;
    expect(example.data.code).toBe('validation_failed');
    expect(example.data.errors).toEqual([expect.objectContaining({ field: expect.any(String) })]);
  });

  it('names a validation failure beside the fields at fault', async () => {
    const res = await suite.ctx
      .http()
      .post('/assistant/create')
      .set(suite.user.auth)
      .send(assistantBody({ assistant_name: 5 }))
      .expect(400);
    expect(res.body.data).toEqual({
      code: 'validation_failed',
      errors: [expect.objectContaining({ field: 'assistant_name' })],
    });
  });

  it.each([
    ['no key', 401, 'unauthorized', () => suite.ctx.http().get('/auth/check-key')],
    [
      'another user’s id',
      404,
      'not_found',
      () =>
        suite.ctx
          .http()
          .get('/tool/details/00000000-0000-4000-8000-000000000000')
          .set(suite.user.auth),
    ],
    ['an unknown route', 404, 'route_not_found', () => suite.ctx.http().get('/no/such/route')],
    [
      'the operator route without the key',
      401,
      'unauthorized',
      () => suite.ctx.http().get('/metrics'),
    ],
  ])('answers %s with its status and code', async (_, status, code, send) => {
    const res = await send().expect(status);
    expect(res.body).toMatchObject({ success: false, data: { code } });
    expect(
      ERROR_STATUSES[status].code === code || code in (ERROR_STATUSES[status].narrower ?? {}),
    ).toBe(true);
  });

  it('says which misuse of an Idempotency-Key it refused', async () => {
    const key = `error-codes-${Date.now()}`;
    const create = (name: string) =>
      suite.ctx
        .http()
        .post('/assistant/create')
        .set(suite.user.auth)
        .set('Idempotency-Key', key)
        .send(assistantBody({ assistant_name: name }));
    await create('first').expect(200);
    const reused = await create('second').expect(422);
    expect(reused.body.data).toEqual({ code: 'idempotency_key_reused' });
  });

  it('keeps the code on an operator route refused', async () => {
    const res = await suite.ctx
      .http()
      .post('/auth/create-key')
      .set(ADMIN)
      .send({ user_name: 'x' })
      .expect(400);
    expect(res.body.data.code).toBe('validation_failed');
  });
});
