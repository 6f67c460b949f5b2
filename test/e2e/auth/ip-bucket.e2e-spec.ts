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
 * One client address sending junk keys spends its own budget, never that of the valid keys the
 * serving process knows, sent from the same address (behind a load balancer, every client's);
 * past the budget, junk from the address costs no query.
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

  it(`${FLOOD} junk keys from one address: 429 once the address's budget is spent, with no query past it; a key the process knows still answered`, async () => {
    // Created through the operator route; `known` is then used once on each process.
    const known = await two.a.newUser();
    const unseen = await two.a.newUser();
    for (const ctx of [two.a, two.b])
      await ctx.http().get('/auth/check-key').set(known.auth).expect(200);
    const junk = Array.from({ length: FLOOD }, (_, i) =>
      i % 2 ? generateApiKey() : `vac_guess_${i}`,
    );

    const findOne = jest.spyOn(two.a.dataSource.getRepository(ApiKeyEntity), 'findOne');
    let statuses: number[];
    try {
      statuses = await statusesOf(two.a, junk);
      // A query for each well-formed key answered 401; none for the ones past the budget.
      const queried = junk.filter((_, i) => i % 2 === 1 && statuses[i] === 401).length;
      expect(findOne).toHaveBeenCalledTimes(queried);
    } finally {
      findOne.mockRestore();
    }
    expect(statuses.filter((s) => s !== 401 && s !== 429)).toEqual([]);
    // Each process that met `known` for the first time charged the address for its query.
    const charged = new Set([two.a, two.b]).size;
    expect(statuses.filter((s) => s === 401)).toHaveLength(LIMIT - charged);
    expect(statuses.filter((s) => s === 429)).toHaveLength(FLOOD - LIMIT + charged);

    // A key each process knows is counted against its own budget only.
    await two.b.http().get('/auth/check-key').set(known.auth).expect(200);
    await two.a.http().get('/auth/check-key').set(known.auth).expect(200);
    // One no process has seen waits for the address's window, as junk does; the address is spent
    // on both processes (one budget in Redis).
    for (const res of [
      await two.b.http().get('/auth/check-key').set(unseen.auth),
      await two.b.http().get('/auth/check-key').set('Authorization', `Bearer ${generateApiKey()}`),
    ]) {
      expect(res.status).toBe(429);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
  });

  it('past the budget, looks no key from the address up: new or repeated, concurrent or not, well-formed or not', async () => {
    const findOne = jest.spyOn(two.b.dataSource.getRepository(ApiKeyEntity), 'findOne');
    try {
      const junk = generateApiKey();
      const repeated = await statusesOf(
        two.b,
        Array.from({ length: 30 }, () => junk),
      );
      const fresh = await statusesOf(
        two.b,
        Array.from({ length: 30 }, () => generateApiKey()),
      );
      const malformed = await statusesOf(
        two.b,
        Array.from({ length: 30 }, (_, i) => `vac_not_a_key_${i}`),
      );
      expect(new Set([...repeated, ...fresh, ...malformed])).toEqual(new Set([429]));
      expect(findOne).not.toHaveBeenCalled();
    } finally {
      findOne.mockRestore();
    }
  });
});
