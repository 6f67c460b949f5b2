import { assistantBody } from '../../fixtures/assistant';
import { inboundBody } from '../../fixtures/inbound';
import { strategyBody } from '../../fixtures/strategy';
import { staticToolBody } from '../../fixtures/tool';
import { appSuite, type TestUser } from '../../utils/create-test-app';

/** How to make, read and change one kind of record. */
interface Resource {
  name: string;
  create: (user: TestUser) => Promise<string>;
  base: string;
  change: (n: number) => Record<string, unknown>;
}

describe('ETag, If-None-Match and If-Match (e2e)', () => {
  const suite = appSuite({ users: ['alice'] });

  const createdId = async (path: string, user: TestUser, body: object, idField: string) =>
    (await suite.ctx.http().post(path).set(user.auth).send(body).expect(200)).body.data[
      idField
    ] as string;
  const newAssistant = (user: TestUser) =>
    createdId('/assistant/create', user, assistantBody(), 'assistant_id');
  const newTool = (user: TestUser, name = `tool_${Date.now()}`) =>
    createdId('/tool/create', user, staticToolBody(name, 'ok'), 'tool_id');

  const RESOURCES: Resource[] = [
    {
      name: 'assistant',
      create: newAssistant,
      base: '/assistant',
      change: (n) => ({ assistant_name: `Renamed ${n}` }),
    },
    {
      name: 'tool',
      create: (user) => newTool(user),
      base: '/tool',
      change: (n) => ({ tool_description: `Changed ${n}` }),
    },
    {
      name: 'strategy',
      create: (user) =>
        createdId(
          '/inbound_context_strategy/create',
          user,
          strategyBody('http://127.0.0.1:9/context'),
          'strategy_id',
        ),
      base: '/inbound_context_strategy',
      change: (n) => ({ strategy_name: `S ${n}` }),
    },
    {
      name: 'inbound mapping',
      create: async (user) =>
        createdId('/inbound/assign', user, inboundBody(await newAssistant(user)), 'inbound_id'),
      base: '/inbound',
      change: (n) => ({ is_active: n % 2 === 0 }),
    },
  ];

  const details = (base: string, id: string, headers: Record<string, string> = {}) =>
    suite.ctx.http().get(`${base}/details/${id}`).set(suite.alice.auth).set(headers);
  const update = (base: string, id: string, body: object, headers: Record<string, string> = {}) =>
    suite.ctx.http().patch(`${base}/update/${id}`).set(suite.alice.auth).set(headers).send(body);
  const remove = (base: string, id: string, headers: Record<string, string>) =>
    suite.ctx.http().delete(`${base}/delete/${id}`).set(suite.alice.auth).set(headers);
  const etagOf = async (base: string, id: string) => {
    const res = await details(base, id).expect(200);
    return res.headers.etag;
  };

  describe.each(RESOURCES)('$name', ({ create, base, change }) => {
    let id: string;
    beforeAll(async () => {
      id = await create(suite.alice);
    });

    it('details carry a strong ETag; If-None-Match with it is 304 with no body', async () => {
      const etag = await etagOf(base, id);
      expect(etag).toMatch(/^"[\w-]+"$/);
      const again = await details(base, id, { 'If-None-Match': etag }).expect(304);
      expect(again.text).toBe('');
      expect(again.headers.etag).toBe(etag);
      await details(base, id, { 'If-None-Match': `W/${etag}` }).expect(304);
      await details(base, id, { 'If-None-Match': '"something-else"' }).expect(200);
    });

    it('a stale If-Match is 412 in the envelope and writes nothing; a fresh one passes', async () => {
      const before = await details(base, id).expect(200);
      const stale = await update(base, id, change(1), { 'If-Match': '"stale"' }).expect(412);
      expect(stale.body).toMatchObject({ success: false, data: { code: 'precondition_failed' } });
      expect(stale.body.message).toMatch(/If-Match/);
      const unchanged = await details(base, id).expect(200);
      expect(unchanged.body.data).toEqual(before.body.data);

      const fresh = await update(base, id, change(2), { 'If-Match': before.headers.etag }).expect(
        200,
      );
      expect(fresh.headers.etag).not.toBe(before.headers.etag);
      // The update's ETag is the one details now show, so it can guard the next write.
      expect(await etagOf(base, id)).toBe(fresh.headers.etag);
      await update(base, id, change(3), { 'If-Match': fresh.headers.etag }).expect(200);
      // The ETag of before the two writes no longer matches.
      await details(base, id, { 'If-None-Match': before.headers.etag }).expect(200);
    });

    it('only a lone * means "any": a * inside another value is 412 and writes nothing', async () => {
      const before = await details(base, id).expect(200);
      for (const header of ['x*y', '"stale", *'])
        await update(base, id, change(7), { 'If-Match': header }).expect(412);
      expect((await details(base, id).expect(200)).body.data).toEqual(before.body.data);
      await update(base, id, change(8), { 'If-Match': '*' }).expect(200);
    });

    it('two writes with the same If-Match: one lands, the other is 412', async () => {
      const etag = await etagOf(base, id);
      const send = (n: number) => update(base, id, change(n), { 'If-Match': etag });
      const statuses = (await Promise.all([send(4), send(5)])).map((res) => res.status).sort();
      expect(statuses).toEqual([200, 412]);
    });

    it('a write that sets every field to what it was still gives a new ETag', async () => {
      const write = () => update(base, id, change(6)).expect(200);
      const first = await write();
      const second = await write();
      expect(second.headers.etag).not.toBe(first.headers.etag);
      // So the ETag read between the two writes no longer guards a third.
      await update(base, id, change(6), { 'If-Match': first.headers.etag }).expect(412);
    });

    it('DELETE honours If-Match: stale is 412 and the record stays; fresh deletes it', async () => {
      const other = await create(suite.alice);
      await remove(base, other, { 'If-Match': '"stale"' }).expect(412);
      const etag = await etagOf(base, other);
      await remove(base, other, { 'If-Match': etag }).expect(200);
      await details(base, other).expect(404);
    });
  });

  it("an assistant's ETag changes when a tool is attached or detached, and its versions have their own", async () => {
    const assistantId = await newAssistant(suite.alice);
    const toolId = await newTool(suite.alice, 'etag_tool');
    const first = await etagOf('/assistant', assistantId);
    await suite.ctx
      .http()
      .post(`/tool/attach/${assistantId}`)
      .set(suite.alice.auth)
      .send({ tool_ids: [toolId] })
      .expect(200);
    const attached = await etagOf('/assistant', assistantId);
    expect(attached).not.toBe(first);
    await details('/assistant', assistantId, { 'If-None-Match': first }).expect(200);
    // A write guarded by the ETag from before the attach is refused.
    await suite.ctx
      .http()
      .patch(`/assistant/update/${assistantId}`)
      .set(suite.alice.auth)
      .set('If-Match', first)
      .send({ assistant_name: 'late' })
      .expect(412);

    await suite.ctx
      .http()
      .post(`/assistant/publish/${assistantId}`)
      .set(suite.alice.auth)
      .send({})
      .expect(200);
    const version = await suite.ctx
      .http()
      .get(`/assistant/details/${assistantId}?version=1`)
      .set(suite.alice.auth)
      .expect(200);
    expect(version.headers.etag).toMatch(/^"[\w-]+"$/);
    await suite.ctx
      .http()
      .post(`/tool/detach/${assistantId}`)
      .set(suite.alice.auth)
      .send({ tool_ids: [toolId] })
      .expect(200);
    expect(await etagOf('/assistant', assistantId)).toBe(first);
    // The published version did not change with the detach.
    await suite.ctx
      .http()
      .get(`/assistant/details/${assistantId}?version=1`)
      .set(suite.alice.auth)
      .set('If-None-Match', version.headers.etag)
      .expect(304);
  });
});
