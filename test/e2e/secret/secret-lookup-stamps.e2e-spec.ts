/**
 * `last_used_at` of the secrets an inbound lookup sends: the lookup resolves them from the routing
 * table's values (no statement of its own), and their stamps are written in a batch after it. No
 * stamp is a configuration change: none rebuilds the routing table.
 */
import { randomUUID } from 'node:crypto';
import { WebhookSecretsService } from '../../../src/auth/webhook-secrets.service';
import { InboundContextLookupService } from '../../../src/lookup/inbound-context-lookup.service';
import { RoutingStore } from '../../../src/lookup/routing/routing-store';
import { RoutingBuilder } from '../../../src/lookup/routing/routing-builder';
import { SecretUseStamps } from '../../../src/secret/secret-use-stamps';
import { assistantApi } from '../../api/assistant-api';
import { routeNumber } from '../../api/inbound-api';
import { secretApi } from '../../api/secret-api';
import { strategyApi } from '../../api/strategy-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { createTestApp, type TestContext, type TestUser } from '../../utils/create-test-app';
import { CustomerServer } from '../../utils/customer-server';

describe('secret last_used_at stamped by lookups (e2e)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let server: CustomerServer;
  /** Writes the stamps due now; the interval's writes are held, so the test sees each write. */
  let flush: () => Promise<void>;

  beforeAll(async () => {
    server = await CustomerServer.start();
    ctx = await createTestApp();
    user = await ctx.newUser();
    const stamps = ctx.app.get(SecretUseStamps);
    flush = stamps.flush.bind(stamps);
    jest.spyOn(stamps, 'flush').mockResolvedValue(undefined);
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await ctx.close();
    await server.close();
  });

  /** The SQL statements on `secrets` that `ctx`'s database runs while `work` runs. */
  async function secretStatementsDuring(work: () => Promise<unknown>): Promise<string[]> {
    const seen: string[] = [];
    const logger = ctx.dataSource.logger;
    const logQuery = logger.logQuery.bind(logger);
    const spy = jest.spyOn(logger, 'logQuery').mockImplementation((sql, parameters) => {
      if (/\bsecrets\b/.test(sql)) seen.push(sql);
      return logQuery(sql, parameters);
    });
    try {
      await work();
    } finally {
      spy.mockRestore();
    }
    return seen;
  }

  it('a lookup routed from the table stamps the secrets its strategy sent, in a later batch', async () => {
    await secretApi(ctx, user).create('LOOKUP_TOKEN', 'lookup-token-value');
    await secretApi(ctx, user).create('UNSENT_TOKEN', 'unsent-token-value');
    const { assistant_id: assistantId } = await assistantApi(ctx, user).create(
      assistantBody({ assistant_name: 'Stamped', assistant_prompt: 'Hi {{context.name}}' }),
    );
    server.respond('/stamp', { body: { context: { name: 'Asha' } } });
    const { phone } = await routeNumber(
      ctx,
      user,
      assistantId,
      strategyBody(server.url('/stamp'), {
        headers: { Authorization: 'Bearer {{secret.LOOKUP_TOKEN}}' },
      }),
    );
    await ctx.app.get(RoutingBuilder).settled();
    const created = await secretApi(ctx, user).details('LOOKUP_TOKEN');
    expect(created.last_used_at).toBeNull();

    const lookup = () =>
      ctx.app
        .get(InboundContextLookupService)
        .run({ room_name: `room-${randomUUID()}`, inbound_number: phone });
    const before = Date.now();
    // Routed from the table: the lookup reads no secret and writes no stamp itself.
    expect(
      await secretStatementsDuring(async () =>
        expect(await lookup()).toMatchObject({ status: 'success', assistant_name: 'Stamped' }),
      ),
    ).toEqual([]);
    expect(server.requestsTo('/stamp').at(-1)?.headers.authorization).toBe(
      'Bearer lookup-token-value',
    );

    const rebuilds = jest.spyOn(ctx.app.get(RoutingStore), 'write');
    try {
      expect(await secretStatementsDuring(flush)).toHaveLength(1);
      // A stamp is no configuration change: the routing table is not rebuilt for it.
      expect(rebuilds).not.toHaveBeenCalled();
    } finally {
      rebuilds.mockRestore();
    }
    const stamped = await secretApi(ctx, user).details('LOOKUP_TOKEN');
    expect(stamped.last_used_at).not.toBeNull();
    expect(Date.parse(stamped.last_used_at!)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(stamped.last_used_at!)).toBeLessThanOrEqual(Date.now() + 1000);
    expect(stamped.updated_at).toBe(created.updated_at);
    expect((await secretApi(ctx, user).details('UNSENT_TOKEN')).last_used_at).toBeNull();

    // Used again within the minute: stamped already, nothing more is written.
    await lookup();
    expect(await secretStatementsDuring(flush)).toEqual([]);
    expect((await secretApi(ctx, user).details('LOOKUP_TOKEN')).last_used_at).toBe(
      stamped.last_used_at,
    );
  });

  it('a stamp written at resolution (the strategy dry run) rebuilds no routing either', async () => {
    await secretApi(ctx, user).create('DRY_RUN_TOKEN', 'dry-run-token-value');
    server.respond('/dry-run', { body: { context: { name: 'Asha' } } });
    const { strategy_id: strategyId } = await strategyApi(ctx, user).create(
      strategyBody(server.url('/dry-run'), {
        headers: { Authorization: 'Bearer {{secret.DRY_RUN_TOKEN}}' },
      }),
    );
    // The user's first signed request creates the signing secret, a change of routing: made here.
    await ctx.app.get(WebhookSecretsService).signingSecretsFor(user.userId);
    await ctx.app.get(RoutingBuilder).settled();
    const rebuilds = jest.spyOn(ctx.app.get(RoutingStore), 'write');
    try {
      await ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategyId}`)
        .set(user.auth)
        .send({})
        .expect(200);
      await ctx.app.get(RoutingBuilder).settled();
      expect(rebuilds).not.toHaveBeenCalled();
    } finally {
      rebuilds.mockRestore();
    }
    expect(server.requestsTo('/dry-run')).toHaveLength(1);
    expect((await secretApi(ctx, user).details('DRY_RUN_TOKEN')).last_used_at).not.toBeNull();
  });
});
