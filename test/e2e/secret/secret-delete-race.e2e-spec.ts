/**
 * Deleting a secret races saves that add a `{{secret.NAME}}` reference to it: either the delete
 * sees the reference (409) or the save finds the secret gone (400); never both succeed, leaving
 * a saved reference to a deleted secret.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { SecretUsage } from '../../../src/secret/secret-usage';
import { SecretRepository } from '../../../src/secret/secret.repository';
import { assistantApi } from '../../api/assistant-api';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { toolApi } from '../../api/tool-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../../utils/customer-server';

const ROUNDS = 40;

describe('secret delete vs. saves that reference it (race)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let server: CustomerServer;
  let receiver: string;

  beforeAll(async () => {
    server = await startCustomerServer();
    receiver = server.url('/hook');
    ctx = await createTestApp();
    user = await ctx.newUser();
  });
  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  const toolBody = (name: string, headers: Record<string, string>) => ({
    tool_name: name,
    tool_description: 'Looks up a customer',
    tool_execution_type: 'webhook',
    tool_execution_config: { url: receiver, headers },
  });

  /** The saves of one round, each adding a reference to `name`: creates and updates. */
  async function savesOf(round: number, name: string) {
    const ref = `Bearer {{secret.${name}}}`;
    const [{ tool_id }, { strategy_id }, { assistant_id }] = await Promise.all([
      toolApi(ctx, user).create(toolBody(`race_existing_${round}`, {})),
      strategyApi(ctx, user).create(strategyBody(receiver)),
      assistantApi(ctx, user).create(),
    ]);
    const http = () => ctx.http();
    return [
      () =>
        http()
          .post('/tool/create')
          .set(user.auth)
          .send(toolBody(`race_${round}`, { A: ref })),
      () =>
        http()
          .patch(`/tool/update/${tool_id}`)
          .set(user.auth)
          .send({ tool_execution_config: { url: receiver, headers: { A: ref } } }),
      () =>
        http()
          .post('/inbound_context_strategy/create')
          .set(user.auth)
          .send(strategyBody(receiver, { headers: { A: ref } })),
      () =>
        http()
          .patch(`/inbound_context_strategy/update/${strategy_id}`)
          .set(user.auth)
          .send({ strategy_config: { headers: { A: ref } } }),
      () =>
        http()
          .post('/assistant/create')
          .set(user.auth)
          .send(assistantBody({ assistant_end_call_url: `${receiver}?k={{secret.${name}}}` })),
      () =>
        http()
          .patch(`/assistant/update/${assistant_id}`)
          .set(user.auth)
          .send({ assistant_end_call_url: `${receiver}?k={{secret.${name}}}` }),
    ];
  }

  it(`never leaves a reference to a deleted secret (${ROUNDS} rounds)`, async () => {
    const outcomes = { deleted: 0, refused: 0 };
    for (let round = 0; round < ROUNDS; round += 1) {
      const name = `RACE_${round}`;
      await secretApi(ctx, user).create(name, `race-value-${round}`);
      const saves = await savesOf(round, name);
      // Even rounds: the delete goes first and save k follows it by k * (round % 5) ms; odd
      // rounds: the saves go first and the delete follows by round % 7 ms. Across the rounds
      // the saves' checks and writes land before, among and after the delete's.
      const lead = round % 2 === 1;
      const [deletion, saved] = await Promise.all([
        delay(lead ? round % 7 : 0).then(() =>
          ctx
            .http()
            .delete(`/secret/delete/${name}`)
            .set(user.auth)
            .then((res) => res),
        ),
        Promise.all(
          saves.map((save, k) =>
            delay(lead ? 0 : k * (round % 5)).then(() => save().then((res) => res)),
          ),
        ),
      ]);
      for (const res of saved) expect([200, 400]).toContain(res.status);
      expect([200, 409]).toContain(deletion.status);

      const exists = (await new SecretRepository(ctx.dataSource).findNamed(user.userId, [name]))
        .length;
      const referenced = (await ctx.app.get(SecretUsage).byName(user.userId)).get(name) ?? [];
      if (deletion.status === 200) {
        outcomes.deleted += 1;
        expect(exists).toBe(0);
        expect(referenced).toEqual([]);
        // Every save that lost the race names the field and the secret it could not find.
        for (const res of saved.filter((r) => r.status === 400))
          expect(JSON.stringify(res.body.data.errors)).toContain(name);
        expect(saved.every((res) => res.status === 400)).toBe(true);
      } else {
        outcomes.refused += 1;
        expect(exists).toBe(1);
        expect(saved.every((res) => res.status === 200)).toBe(true);
        // What the 409 named was saved, and is still there.
        const named: unknown[] = deletion.body.data.used_by;
        expect(named.length).toBeGreaterThan(0);
        expect(referenced).toEqual(expect.arrayContaining(named));
      }
    }
    expect(outcomes.deleted + outcomes.refused).toBe(ROUNDS);
  }, 180_000);
});
