import { generateApiKey } from '../../../src/auth/api-key';
import { ApiKeyEntity } from '../../../src/auth/api-key.entity';
import { KeyRevocations } from '../../../src/auth/key-revocations';
import { waitUntil } from '../../faults/support/services';
import type { TestContext } from '../../utils/create-test-app';
import { startTwoProcesses, type TwoProcesses } from '../../utils/two-processes';

const LIMIT = 600;
const FLOOD = 700;

async function statusesOf(ctx: TestContext, keys: string[]): Promise<number[]> {
  const statuses: number[] = [];
  // A few at a time: one client address, as a script flooding the service would be.
  for (let i = 0; i < keys.length; i += 25) {
    const batch = keys.slice(i, i + 25);
    statuses.push(
      ...(
        await Promise.all(
          batch.map((key) =>
            ctx.http().get('/auth/check-key').set('Authorization', `Bearer ${key}`),
          ),
        )
      ).map((res) => res.status),
    );
  }
  return statuses;
}

/**
 * One client address sending junk keys spends its own budget, never that of valid keys sent
 * from the same address (behind a load balancer, every client's): a valid key is counted against
 * its key's budget only, whichever process serves it and whether or not that process knows it.
 */
describe('Junk keys from one address and valid keys (e2e)', () => {
  let two: TwoProcesses;

  beforeAll(async () => {
    // The default budget; this file's Bull prefix keeps its counters apart from other files'.
    two = await startTwoProcesses({ RATE_LIMIT_PER_MINUTE: String(LIMIT) });
    for (const ctx of [two.a, two.b])
      await waitUntil('key revocations', () => ctx.app.get(KeyRevocations).live, 5000, 20);
  });
  afterAll(() => two.close());

  it(`${FLOOD} junk keys from one address: 429 once the address's budget is spent, a valid key not cached by the serving process still answered`, async () => {
    // Created through the operator route: no process has authenticated either key yet.
    const first = await two.a.newUser();
    const second = await two.a.newUser();
    const junk = Array.from({ length: FLOOD }, (_, i) =>
      i % 2 ? generateApiKey() : `vac_guess_${i}`,
    );

    const statuses = await statusesOf(two.a, junk);
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FLOOD - LIMIT);

    // The other process (in embedded mode the same one) has never seen this key.
    await two.b.http().get('/auth/check-key').set(first.auth).expect(200);
    await two.a.http().get('/auth/check-key').set(second.auth).expect(200);
    // The address is still spent, on both processes (one budget in Redis).
    const after = await two.b
      .http()
      .get('/auth/check-key')
      .set('Authorization', `Bearer ${generateApiKey()}`);
    expect(after.status).toBe(429);
    expect(Number(after.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('never looks the same invalid key up twice, throttled or not, concurrent or not; a malformed key never', async () => {
    const findOne = jest.spyOn(two.b.dataSource.getRepository(ApiKeyEntity), 'findOne');
    try {
      const junk = generateApiKey();
      await statusesOf(
        two.b,
        Array.from({ length: 30 }, () => junk),
      );
      expect(findOne).toHaveBeenCalledTimes(1);
      findOne.mockClear();
      await statusesOf(
        two.b,
        Array.from({ length: 30 }, (_, i) => `vac_not_a_key_${i}`),
      );
      expect(findOne).not.toHaveBeenCalled();
    } finally {
      findOne.mockRestore();
    }
  });
});
