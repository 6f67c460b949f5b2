import { appSuite } from '../../utils/create-test-app';
import { onCluster, redisConfigured } from '../../utils/test-redis';

const redisMode = redisConfigured;

describe('Health probes', () => {
  const suite = appSuite();

  it('GET /health/ready answers 200 when every dependency answers', async () => {
    const res = await suite.ctx.http().get('/health/ready').expect(200);
    expect(res.body).toMatchObject({ success: true, message: 'Ready', data: { status: 'ok' } });
    expect(res.body.data.details.database.status).toBe('up');
  });

  it('GET /health/live answers 200 without touching a dependency', async () => {
    const res = await suite.ctx.http().get('/health/live').expect(200);
    expect(res.body).toMatchObject({ success: true, data: { status: 'ok' } });
  });
});

/** Redis configured but unreachable (a closed port): the shared Redis is never stopped. */
(redisMode ? describe : describe.skip)('Health probes with Redis unreachable', () => {
  const suite = appSuite({
    app: {
      env: {
        ...(onCluster
          ? { REDIS_URL: undefined, REDIS_CLUSTER_NODES: '127.0.0.1:1' }
          : { REDIS_URL: 'redis://127.0.0.1:1' }),
        RATE_LIMIT_PER_MINUTE: '0',
      },
    },
  });

  it('GET /health answers 200 degraded while CRUD still works', async () => {
    const res = await suite.ctx.http().get('/health').expect(200);
    expect(res.body).toMatchObject({
      success: true,
      data: {
        status: 'degraded',
        details: { database: { status: 'up' }, redis: { status: 'down' } },
      },
    });
    const user = await suite.ctx.newUser();
    const created = await suite.ctx
      .http()
      .post('/assistant/create')
      .set(user.auth)
      .send({
        assistant_name: 'Made without Redis',
        assistant_description: 'd',
        assistant_prompt: 'Hi',
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'voice-1' },
      })
      .expect(200);
    await suite.ctx
      .http()
      .get(`/assistant/details/${created.body.data.assistant_id}`)
      .set(user.auth)
      .expect(200);
  });

  it('GET /health/ready answers 503 naming Redis', async () => {
    const res = await suite.ctx.http().get('/health/ready').expect(503);
    expect(res.body).toMatchObject({
      success: false,
      data: { status: 'degraded', details: { redis: { status: 'down' } } },
    });
    expect(res.body.message).toMatch(/Redis/);
  });

  it('GET /health/live still answers 200', async () => {
    await suite.ctx.http().get('/health/live').expect(200);
  });
});
