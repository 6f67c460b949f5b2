import { createTestApp, type TestContext } from './create-test-app';

/**
 * Two API processes on one database and one Redis, as production runs them behind a load
 * balancer: `a` runs every role, `b` only serves the API. Embedded (no Redis) the service is one
 * process, and `b` is `a`.
 */
export interface TwoProcesses {
  a: TestContext;
  b: TestContext;
  close(): Promise<void>;
}

export async function startTwoProcesses(): Promise<TwoProcesses> {
  const a = await createTestApp();
  const b = process.env.REDIS_URL ? await createTestApp({ role: 'api' }) : a;
  return {
    a,
    b,
    close: async () => {
      if (b !== a) await b.close();
      await a.close();
    },
  };
}
