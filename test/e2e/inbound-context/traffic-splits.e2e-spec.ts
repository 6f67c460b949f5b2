import { randomUUID } from 'node:crypto';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { inboundContextLookupContract } from '../../../src/contracts';
import { QUEUES } from '../../../src/contracts/queues';
import { InboundMappingEntity } from '../../../src/inbound-context/inbound-mapping.entity';
import { assistantApi } from '../../api/assistant-api';
import { strategyApi } from '../../api/strategy-api';
import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

const split = (...arms: Array<[number | null, number]>) =>
  arms.map(([assistant_version, weight]) => ({ assistant_version, weight }));

describe('Caller-sticky traffic splits (e2e)', () => {
  const suite = appSuite({ users: ['user', 'other'], server: true, producer: true });
  const http = () => suite.ctx.http();
  const assign = (body: Record<string, unknown>, as = suite.user) =>
    http().post('/inbound/assign').set(as.auth).send(body);
  const update = (id: string, body: Record<string, unknown>) =>
    http().patch(`/inbound/update/${id}`).set(suite.user.auth).send(body);
  const fieldsOf = (res: { body: { data: { errors: Array<{ field: string }> } } }) =>
    new Set(res.body.data.errors.map((e) => e.field.replace(/\[\d+\].*$/, '')));
  const lookup = (data: Record<string, unknown>) =>
    suite.producer.run<InboundContextLookupResult>(QUEUES.INBOUND_CONTEXT_LOOKUP, data);

  /** An assistant whose versions 1 and 2 say "one" and "two"; the working copy says "draft". */
  async function twoVersions(): Promise<string> {
    const id = (
      await assistantApi(suite.ctx, suite.user).create(assistantBody({ assistant_prompt: 'one' }))
    ).assistant_id;
    for (const prompt of ['two', 'draft']) {
      await http().post(`/assistant/publish/${id}`).set(suite.user.auth).send({}).expect(200);
      await http()
        .patch(`/assistant/update/${id}`)
        .set(suite.user.auth)
        .send({ assistant_prompt: prompt })
        .expect(200);
    }
    return id;
  }

  describe('assistant_variants on assign and update', () => {
    let assistantId: string;
    beforeAll(async () => {
      assistantId = await twoVersions();
    });

    it('stores a split, returns it on every read, and null removes it', async () => {
      const body = inboundBody(assistantId, { assistant_variants: split([1, 90], [2, 10]) });
      const created = await assign(body).expect(200);
      expect(created.body.data).toMatchObject({
        assistant_version: null,
        assistant_variants: split([1, 90], [2, 10]),
      });
      const id = created.body.data.inbound_id as string;
      const read = await http().get(`/inbound/details/${id}`).set(suite.user.auth).expect(200);
      expect(read.body.data.assistant_variants).toEqual(split([1, 90], [2, 10]));
      const list = await http().get('/inbound/list').set(suite.user.auth).expect(200);
      expect(
        list.body.data.items.find((m: { inbound_id: string }) => m.inbound_id === id)
          .assistant_variants,
      ).toEqual(split([1, 90], [2, 10]));

      // A pin replaces the split; a split replaces the pin; null removes the split.
      let res = await update(id, { assistant_version: 2 }).expect(200);
      expect(res.body.data).toMatchObject({ assistant_version: 2, assistant_variants: null });
      res = await update(id, { assistant_variants: split([null, 50], [2, 50]) }).expect(200);
      expect(res.body.data).toMatchObject({
        assistant_version: null,
        assistant_variants: split([null, 50], [2, 50]),
      });
      res = await update(id, { assistant_variants: null }).expect(200);
      expect(res.body.data).toMatchObject({ assistant_version: null, assistant_variants: null });
      // Another assistant starts on its working copy: the split goes with the old one.
      await update(id, { assistant_variants: split([1, 50], [2, 50]) }).expect(200);
      const fresh = (await assistantApi(suite.ctx, suite.user).create(assistantBody()))
        .assistant_id;
      res = await update(id, { assistant_id: fresh }).expect(200);
      expect(res.body.data.assistant_variants).toBeNull();
    });

    it.each<[string, unknown, string[]]>([
      ['weights not totalling 100', split([1, 60], [2, 30]), ['assistant_variants']],
      ['one arm', split([1, 100]), ['assistant_variants']],
      [
        'six arms',
        split([1, 20], [2, 20], [null, 20], [3, 20], [4, 10], [5, 10]),
        ['assistant_variants'],
      ],
      ['a version twice', split([1, 50], [1, 50]), ['assistant_variants']],
      ['null twice', split([null, 50], [null, 50]), ['assistant_variants']],
      ['a weight over 100', split([1, 101], [2, -1]), ['assistant_variants']],
      ['a fractional weight', split([1, 50.5], [2, 49.5]), ['assistant_variants']],
      ['version 0', split([0, 50], [2, 50]), ['assistant_variants']],
      [
        'a version as text',
        [
          { assistant_version: '1', weight: 50 },
          { assistant_version: 2, weight: 50 },
        ],
        ['assistant_variants'],
      ],
      [
        'a missing version',
        [{ weight: 50 }, { assistant_version: 2, weight: 50 }],
        ['assistant_variants'],
      ],
      [
        'an unknown key',
        [
          { assistant_version: 1, weight: 50, x: 1 },
          { assistant_version: 2, weight: 50 },
        ],
        ['assistant_variants'],
      ],
      ['an object', { assistant_version: 1, weight: 100 }, ['assistant_variants']],
      [
        'arrays',
        [
          [1, 50],
          [2, 50],
        ],
        ['assistant_variants'],
      ],
      ['text', 'half', ['assistant_variants']],
    ])('refuses %s with 400 naming the field, writing nothing', async (_what, variants, fields) => {
      const before = await suite.ctx.dataSource.getRepository(InboundMappingEntity).countBy({
        user_id: suite.user.userId,
      });
      const res = await assign(inboundBody(assistantId, { assistant_variants: variants })).expect(
        400,
      );
      expect(fieldsOf(res)).toEqual(new Set(fields));
      const mapping = await assign(inboundBody(assistantId)).expect(200);
      await update(mapping.body.data.inbound_id as string, {
        assistant_variants: variants,
      }).expect(400);
      const stored = await suite.ctx.dataSource
        .getRepository(InboundMappingEntity)
        .findOneByOrFail({ inbound_id: mapping.body.data.inbound_id as string });
      expect(stored.assistant_variants).toBeNull();
      expect(
        await suite.ctx.dataSource
          .getRepository(InboundMappingEntity)
          .countBy({ user_id: suite.user.userId }),
      ).toBe(before + 1);
    });

    it('is exclusive with assistant_version: 400 naming both', async () => {
      const body = inboundBody(assistantId, {
        assistant_version: 1,
        assistant_variants: split([1, 50], [2, 50]),
      });
      const res = await assign(body).expect(400);
      expect(fieldsOf(res)).toEqual(new Set(['assistant_version', 'assistant_variants']));
      const id = (await assign(inboundBody(assistantId)).expect(200)).body.data.inbound_id;
      const patched = await update(id as string, {
        assistant_version: 2,
        assistant_variants: split([1, 50], [2, 50]),
      }).expect(400);
      expect(fieldsOf(patched)).toEqual(new Set(['assistant_version', 'assistant_variants']));
    });

    it("is 404 when a version does not exist or is another user's", async () => {
      await assign(
        inboundBody(assistantId, { assistant_variants: split([1, 50], [9, 50]) }),
      ).expect(404);
      const id = (await assign(inboundBody(assistantId)).expect(200)).body.data.inbound_id;
      await update(id as string, { assistant_variants: split([1, 50], [9, 50]) }).expect(404);
      await assign(
        inboundBody(assistantId, { assistant_variants: split([1, 50], [2, 50]) }),
        suite.other,
      ).expect(404);
    });
  });

  it('2,000 lookups over 200 callers at 70/30: every caller keeps one variant, 30% ± 5 points', async () => {
    const assistantId = await twoVersions();
    const mapping = (
      await assign(
        inboundBody(assistantId, { assistant_variants: split([1, 70], [2, 30]) }),
      ).expect(200)
    ).body.data;
    const callers = Array.from({ length: 200 }, (_, i) => `+91 98450 ${String(10000 + i)}`);
    const seen = new Map<string, Set<number>>();
    let second = 0;
    const jobs = callers.flatMap((caller) => Array.from({ length: 10 }, () => caller));
    for (let i = 0; i < jobs.length; i += 25) {
      const batch = jobs.slice(i, i + 25);
      const results = await Promise.all(
        batch.map((caller) =>
          lookup({
            room_name: `room-${randomUUID()}`,
            inbound_id: mapping.inbound_id,
            caller_number: caller,
          }),
        ),
      );
      results.forEach((result, j) => {
        expect(inboundContextLookupContract.checkResult(result).ok).toBe(true);
        const variant = result.variant!;
        expect(result.assistant_version).toBe([1, 2][variant]);
        expect(result.prompt).toBe(['one', 'two'][variant]);
        const set = seen.get(batch[j]) ?? new Set<number>();
        set.add(variant);
        seen.set(batch[j], set);
        if (variant === 1) second += 1;
      });
    }
    expect([...seen.values()].every((variants) => variants.size === 1)).toBe(true);
    expect(Math.abs((second / jobs.length) * 100 - 30)).toBeLessThanOrEqual(5);

    // Moving to 60/40 moves only callers from the first variant to the second.
    await update(mapping.inbound_id as string, {
      assistant_variants: split([1, 60], [2, 40]),
    }).expect(200);
    for (const caller of callers.slice(0, 60)) {
      const result = await lookup({
        room_name: `room-${randomUUID()}`,
        inbound_id: mapping.inbound_id,
        caller_number: caller,
      });
      const before = [...seen.get(caller)!][0];
      if (before === 1) expect(result.variant).toBe(1);
    }
  }, 300_000);

  it('a caller without a number sticks by room; lookup entries carry variant and version', async () => {
    suite.server.respond('/split-context', { body: { context: { name: 'Asha' } } });
    const assistantId = await twoVersions();
    const strategy = await strategyApi(suite.ctx, suite.user).create(
      strategyBody(suite.server.url('/split-context'), {}, { strategy_name: 'split' }),
    );
    const mapping = (
      await assign(
        inboundBody(assistantId, {
          inbound_context_strategy_id: strategy.strategy_id,
          assistant_variants: split([null, 50], [1, 0], [2, 50]),
        }),
      ).expect(200)
    ).body.data;
    const room = `room-${randomUUID()}`;
    const first = await lookup({ room_name: room, inbound_id: mapping.inbound_id });
    const again = await lookup({ room_name: room, inbound_id: mapping.inbound_id });
    expect(first.variant).toBe(again.variant);
    expect([0, 2]).toContain(first.variant);
    expect(first.assistant_version).toBe(first.variant === 0 ? null : 2);
    expect(first.prompt).toBe(first.variant === 0 ? 'draft' : 'two');
    const logs = await http()
      .get('/logs')
      .query({ room_name: room, log_type: 'inbound_context_lookup' })
      .set(suite.user.auth)
      .expect(200);
    expect(logs.body.data.logs[0].request_data).toMatchObject({
      variant: first.variant,
      assistant_version: first.assistant_version,
    });
  });
});
