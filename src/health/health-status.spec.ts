import { readinessOf } from './health-status';

describe(readinessOf.name, () => {
  it('is ready exactly when /health/ready answers 200, with each dependency up or not', () => {
    expect(
      readinessOf({
        status: 'degraded',
        details: { database: { status: 'up' }, redis: { status: 'down' } },
      }),
    ).toEqual({ ready: false, dependencies: { database: true, redis: false } });
    expect(
      readinessOf({
        status: 'ok',
        details: {
          database: { status: 'up' },
          redis: { status: 'up' },
          database_replica_1: { status: 'down' },
        },
      }),
    ).toEqual({
      ready: true,
      dependencies: { database: true, redis: true, database_replica_1: false },
    });
  });

  it('reports no Redis dependency in embedded mode, where Redis is not used', () => {
    expect(
      readinessOf({
        status: 'ok',
        details: { database: { status: 'up' }, redis: { status: 'not_used' } },
      }),
    ).toEqual({ ready: true, dependencies: { database: true } });
  });
});
