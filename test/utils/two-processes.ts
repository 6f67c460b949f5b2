import { VersionStamps } from '../../src/common/cache/version-stamps';
import { waitUntil } from '../faults/support/services';
import {
  createTestApp,
  type TestAppOptions,
  type TestContext,
  type TestUser,
} from './create-test-app';
import { redisConfigured } from './test-redis';

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

/**
 * Starts both and waits until each shares its caches' state through Redis: the view stamps
 * answer (until then each skips its cache).
 * `env` applies to both while they boot.
 */
export async function startTwoProcesses(env: TestAppOptions['env'] = {}): Promise<TwoProcesses> {
  const a = await createTestApp({ env });
  const b = redisConfigured ? await createTestApp({ env, role: 'api' }) : a;
  for (const ctx of new Set([a, b])) {
    await waitUntil(
      'a view stamp',
      async () => (await ctx.app.get(VersionStamps).read('assistant-views')) !== null,
      5000,
      20,
    );
  }
  return {
    a,
    b,
    close: async () => {
      if (b !== a) await b.close();
      await a.close();
    },
  };
}

/**
 * The usual setup of a suite over two processes: both started before its tests, with one user
 * created through `a`, and closed after. The returned object is filled in by `beforeAll`.
 */
export function twoProcessesWithUser(): { a: TestContext; b: TestContext; user: TestUser } {
  const state = {} as { a: TestContext; b: TestContext; user: TestUser };
  let processes: TwoProcesses | undefined;
  beforeAll(async () => {
    processes = await startTwoProcesses();
    Object.assign(state, { a: processes.a, b: processes.b, user: await processes.a.newUser() });
  });
  afterAll(() => processes?.close());
  return state;
}
