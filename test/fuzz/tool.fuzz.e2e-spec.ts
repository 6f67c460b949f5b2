/**
 * Property tests for POST /tool/create, PATCH /tool/update/:id, POST /tool/attach/:assistant_id
 * and POST /tool/detach/:assistant_id.
 */
import fc from 'fast-check';
import { AssistantToolEntity } from '../../src/assistant/assistant-tool.entity';
import { ToolEntity } from '../../src/tool/tool.entity';
import { assistantApi } from '../api/assistant-api';
import type { TestContext, TestUser } from '../utils/create-test-app';
import {
  boundedText,
  chaosArb,
  expectedTool,
  fuzzParams,
  fuzzTimeout,
  headersArb,
  maskedHeaders,
  staticValueArb,
  toolCreateArb,
  toolParametersArb,
  uniqueSuffix,
  wrongValue,
  type Body,
  type BodySpec,
  type FieldSpec,
  type Mutation,
  type Path,
  safeJsonValue,
} from '../utils/arbitraries';
import {
  describeResponse,
  expectEnvelope,
  expectRejected,
  fuzzApp,
  holds,
  mutatedArb,
  resourceRoutes,
  storedArb,
  withoutMeta,
} from './fuzz-harness';

const WEBHOOK_URL = 'http://127.0.0.1:9/tools/hook';

function toolFields(body: Body, type: unknown): FieldSpec[] {
  const fields: FieldSpec[] = [
    { path: ['tool_name'], kind: 'string', max: 64 },
    { path: ['tool_description'], kind: 'string', max: 500 },
    { path: ['tool_parameters'], kind: 'array' },
    { path: ['tool_execution_type'], kind: 'enum', values: ['webhook', 'static_return'] },
    { path: ['tool_execution_config'], kind: 'object' },
  ];
  if (type === 'webhook') {
    fields.push(
      { path: ['tool_execution_config', 'url'], kind: 'string', max: 2048 },
      { path: ['tool_execution_config', 'timeout'], kind: 'number' },
      { path: ['tool_execution_config', 'headers'], kind: 'object' },
    );
  }
  const params = Array.isArray(body.tool_parameters) ? (body.tool_parameters as Body[]) : [];
  params.forEach((p, i) => {
    // `tool_parameters[i]` itself gets non-object scalars in toolOutOfRange: an ARRAY there is a known
    // bug (accepted and stored as a parameter without name or type), pinned in regressions.fuzz.e2e-spec.ts.
    fields.push(
      { path: ['tool_parameters', i, 'name'], kind: 'string', max: 64 },
      {
        path: ['tool_parameters', i, 'type'],
        kind: 'enum',
        values: ['string', 'number', 'boolean', 'object', 'array'],
      },
      { path: ['tool_parameters', i, 'description'], kind: 'string', max: 1000 },
      { path: ['tool_parameters', i, 'required'], kind: 'boolean' },
    );
    if (p.type === 'string') fields.push({ path: ['tool_parameters', i, 'enum'], kind: 'array' });
  });
  return fields;
}

function toolOutOfRange(body: Body, type: unknown): Mutation[] {
  const m = (path: Path, value: unknown, label = 'out of range', expectField?: Path): Mutation => ({
    label,
    path,
    value,
    expectField,
  });
  const list: Mutation[] = [
    m(['tool_name'], 'Get_order'),
    m(['tool_name'], '1tool'),
    m(['tool_name'], 'get-order'),
    m(['tool_name'], 'end_call', 'reserved name'),
    m(['tool_name'], 'tëst'),
    m(['tool_name'], ''),
    m(['tool_description'], ''),
    m(['tool_description'], 'd'.repeat(501)),
    m(['tool_execution_type'], 'http'),
    m(
      ['tool_execution_type'],
      type === 'webhook' ? 'static_return' : 'webhook',
      'config of the other type',
      ['tool_execution_config'],
    ),
  ];
  if (type === 'webhook') {
    list.push(
      m(['tool_execution_config', 'timeout'], 0),
      m(['tool_execution_config', 'timeout'], -1),
      m(['tool_execution_config', 'timeout'], 60.01),
      m(['tool_execution_config', 'url'], 'ftp://files.example.com/x'),
      m(['tool_execution_config', 'url'], 'api.example.com/x'),
      m(
        ['tool_execution_config', 'headers'],
        Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v'])),
      ),
      m(['tool_execution_config', 'headers'], { 'X-Inject': 'a\r\nHost: evil' }),
      m(['tool_execution_config', 'headers'], { 'Content-Length': '5' }),
      m(['tool_execution_config', 'headers'], { 'X Bad': 'v' }),
      m(['tool_execution_config', 'headers'], { 'X-Count': 1 }),
      m(['tool_execution_config', 'value'], 1, 'field of the other type'),
    );
  } else {
    list.push(
      m(['tool_execution_config', 'value'], 'x'.repeat(65_536), 'static value over 64 KiB'),
      m(['tool_execution_config', 'url'], WEBHOOK_URL, 'field of the other type'),
    );
  }
  const params = Array.isArray(body.tool_parameters) ? (body.tool_parameters as Body[]) : [];
  list.push(
    m(
      ['tool_parameters'],
      Array.from({ length: 101 }, (_, i) => ({ name: `p${i}`, type: 'string' })),
      'over 100 parameters',
    ),
  );
  params.forEach((p, i) => {
    list.push(
      m(['tool_parameters', i], 'order_id', 'a string where a parameter object is expected'),
      m(['tool_parameters', i], 7, 'a number where a parameter object is expected'),
      m(['tool_parameters', i], null, 'null where a parameter object is expected'),
      m(['tool_parameters', i, 'type'], 'integer'),
      m(['tool_parameters', i, 'name'], '1x'),
      m(['tool_parameters', i, 'name'], 'order-id'),
      m(['tool_parameters', params.length], { ...p }, 'duplicate parameter name', [
        'tool_parameters',
        params.length,
        'name',
      ]),
    );
    if (p.type === 'string') {
      list.push(
        m(['tool_parameters', i, 'enum'], []),
        m(['tool_parameters', i, 'enum'], ['x', 'x']),
        m(['tool_parameters', i, 'enum'], ['x', 1]),
      );
    } else {
      list.push(m(['tool_parameters', i, 'enum'], ['x'], 'enum on a non-string parameter'));
    }
  });
  return list;
}

const createSpec: BodySpec = {
  fields: (body) => toolFields(body, body.tool_execution_type),
  required(body) {
    const req: Path[] = [
      ['tool_name'],
      ['tool_description'],
      ['tool_execution_type'],
      ['tool_execution_config'],
    ];
    req.push(['tool_execution_config', body.tool_execution_type === 'webhook' ? 'url' : 'value']);
    ((body.tool_parameters as Body[] | undefined) ?? []).forEach((_p, i) =>
      req.push(['tool_parameters', i, 'name'], ['tool_parameters', i, 'type']),
    );
    return req;
  },
  closedObjects(body) {
    const objects: Path[] = [[], ['tool_execution_config']];
    ((body.tool_parameters as Body[] | undefined) ?? []).forEach((_p, i) =>
      objects.push(['tool_parameters', i]),
    );
    return objects;
  },
  outOfRange: (body) => toolOutOfRange(body, body.tool_execution_type),
};

/** A valid patch for a stored tool: any subset of the fields, config keys of the stored type. */
function toolPatchArb(stored: Body): fc.Arbitrary<Body> {
  const config =
    stored.tool_execution_type === 'webhook'
      ? fc.record(
          { timeout: fc.double({ min: 0.01, max: 60, noNaN: true }), headers: headersArb },
          { requiredKeys: [] },
        )
      : fc.record({ value: staticValueArb });
  return fc.record(
    {
      tool_name: fc.constant(`renamed_${uniqueSuffix()}`),
      tool_description: boundedText(1, 500),
      tool_parameters: toolParametersArb,
      tool_execution_config: config,
    },
    { requiredKeys: [] },
  );
}

function expectedAfterToolPatch(before: Body, patch: Body): Body {
  const out: Body = { ...before, ...patch };
  if (patch.tool_parameters) {
    out.tool_parameters = (patch.tool_parameters as Body[]).map((p) => ({
      ...p,
      required: p.required ?? true,
    }));
  }
  if (patch.tool_execution_config) {
    const sent = patch.tool_execution_config as Body;
    const merged: Body = { ...(before.tool_execution_config as Body), ...sent };
    if (sent.headers) {
      merged.headers = {
        ...((before.tool_execution_config as Body).headers as Record<string, string>),
        ...maskedHeaders(sent.headers as Record<string, string>),
      };
    }
    out.tool_execution_config = merged;
  }
  return out;
}

function updateSpec(stored: Body): BodySpec {
  const type = stored.tool_execution_type;
  return {
    fields: (patch) => toolFields(patch, type),
    required: () => [
      ['tool_name'],
      ['tool_description'],
      ['tool_execution_type'],
      ['tool_execution_config'],
    ],
    requiredNullOnly: true,
    closedObjects(patch) {
      const objects: Path[] = [[], ['tool_execution_config']];
      ((patch.tool_parameters as Body[] | undefined) ?? []).forEach((_p, i) =>
        objects.push(['tool_parameters', i]),
      );
      return objects;
    },
    outOfRange: (patch) =>
      toolOutOfRange(patch, type).filter((m) => m.label !== 'config of the other type'),
  };
}

describe('tool routes (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;

  const routes = resourceRoutes(
    fuzzApp((app) => ({ ctx, user } = app)),
    {
      entity: ToolEntity,
      createPath: '/tool/create',
      base: '/tool',
      idKey: 'tool_id',
    },
  );
  const { createValid } = routes;

  it(
    'valid create bodies → 200, and the tool reads back with the same values and defaults',
    () =>
      holds(
        toolCreateArb(WEBHOOK_URL),
        routes.validCreateStored(async (res, body) => {
          expect(res.body.data.tool_name).toBe(body.tool_name);
          const read = await routes.details(res.body.data.tool_id as string);
          expect(withoutMeta(read.body.data, 'tool_id')).toEqual(expectedTool(body));
        }),
      ),
    fuzzTimeout(),
  );

  it(
    'mutated create bodies → 4xx envelope naming the field, and no tool is written',
    () => holds(mutatedArb(toolCreateArb(WEBHOOK_URL), createSpec), routes.mutatedCreateRefused),
    fuzzTimeout(),
  );

  it(
    'chaos create bodies → never a 500; a tool only on 200',
    () => holds(toolCreateArb(WEBHOOK_URL).chain(chaosArb), routes.chaosCreateSafe),
    fuzzTimeout(),
  );

  const withStored = <T>(f: (created: Body) => fc.Arbitrary<T>) =>
    storedArb(toolCreateArb(WEBHOOK_URL), f);

  it(
    'valid update bodies → 200; the response and a fresh read show the merged tool',
    () => holds(withStored(toolPatchArb), routes.validUpdateMerged(expectedAfterToolPatch)),
    fuzzTimeout(),
  );

  it(
    'mutated update bodies → 4xx envelope naming the field, and the tool is unchanged',
    () =>
      holds(
        withStored((created) => mutatedArb(toolPatchArb(created), updateSpec(created))),
        routes.mutatedUpdateRefused,
      ),
    fuzzTimeout(),
  );

  it(
    'chaos update bodies → never a 500; a refused one leaves the tool unchanged',
    () =>
      holds(
        withStored((c) => toolPatchArb(c).chain(chaosArb)),
        routes.chaosUpdateSafe,
      ),
    fuzzTimeout(),
  );

  describe('attach / detach', () => {
    let pool: string[];
    beforeAll(async () => {
      pool = [];
      for (let i = 0; i < 6; i++) {
        pool.push(
          await createValid({
            tool_name: `pool_${i}_${uniqueSuffix()}`,
            tool_description: 'pool tool',
            tool_execution_type: 'static_return',
            tool_execution_config: { value: i },
          }),
        );
      }
    });

    const newAssistant = async () => (await assistantApi(ctx, user).create()).assistant_id;
    const attached = async (assistantId: string) =>
      (
        await ctx.dataSource
          .getRepository(AssistantToolEntity)
          .find({ where: { assistant_id: assistantId } })
      )
        .map((row) => row.tool_id)
        .sort();
    const send = (route: 'attach' | 'detach', assistantId: string, body: unknown) =>
      ctx
        .http()
        .post(`/tool/${route}/${assistantId}`)
        .set(user.auth)
        .send(body as object);

    const idsArb = () =>
      fc
        .uniqueArray(fc.integer({ min: 0, max: 5 }), { minLength: 1, maxLength: 6 })
        .map((ix) => ix.map((i) => pool[i]));

    it(
      'valid attach then detach → 200 with the resulting tool ids, as stored',
      async () => {
        await fc.assert(
          fc.asyncProperty(idsArb(), idsArb(), fc.boolean(), async (attach, detach, upper) => {
            const assistantId = await newAssistant();
            const sent = upper ? attach.map((id) => id.toUpperCase()) : attach;
            const a = await send('attach', assistantId, {
              tool_ids: [...sent, ...sent.slice(0, 1)],
            });
            expectEnvelope(a);
            if (a.status !== 200) throw new Error(`valid attach refused: ${describeResponse(a)}`);
            expect([...a.body.data.tool_ids].sort()).toEqual([...attach].sort());
            expect(await attached(assistantId)).toEqual([...attach].sort());
            const d = await send('detach', assistantId, { tool_ids: detach });
            expect(d.status).toBe(200);
            const remaining = attach.filter((id) => !detach.includes(id)).sort();
            expect([...d.body.data.tool_ids].sort()).toEqual(remaining);
            expect(await attached(assistantId)).toEqual(remaining);
          }),
          fuzzParams(),
        );
      },
      fuzzTimeout(),
    );

    type BadAttach = { body: unknown; statuses: readonly number[]; field?: string };
    const badAttachBody: fc.Arbitrary<BadAttach> = fc.oneof<fc.Arbitrary<BadAttach>[]>(
      wrongValue('array').map((v) => ({
        body: { tool_ids: v },
        statuses: [400],
        field: 'tool_ids',
      })),
      fc.constant({ body: {}, statuses: [400], field: 'tool_ids' }),
      fc.constant({ body: { tool_ids: null }, statuses: [400], field: 'tool_ids' }),
      fc.constant({ body: { tool_ids: [] }, statuses: [400], field: 'tool_ids' }),
      fc
        .array(fc.oneof(fc.string(), fc.integer(), fc.constant(null)), {
          minLength: 1,
          maxLength: 4,
        })
        .map((v) => ({
          body: { tool_ids: v },
          statuses: [400],
          field: 'tool_ids',
        })),
      fc.constant({
        body: {
          tool_ids: Array.from(
            { length: 101 },
            (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
          ),
        },
        statuses: [400],
        field: 'tool_ids',
      }),
      fc.uuid().map((id) => ({ body: { tool_ids: [id] }, statuses: [404] })),
      fc
        .tuple(
          fc.string({ minLength: 1, maxLength: 10 }).map((k) => `x_${k}`),
          safeJsonValue(),
        )
        .map(([k, v]) => ({
          body: { tool_ids: [pool[0]], [k]: v ?? 1 },
          statuses: [400],
          field: k,
        })),
    );

    it(
      'mutated attach/detach bodies → 4xx envelope, and the attachments are unchanged',
      async () => {
        await fc.assert(
          fc.asyncProperty(
            badAttachBody,
            fc.constantFrom('attach' as const, 'detach' as const),
            async (bad, route) => {
              const assistantId = await newAssistant();
              expect((await send('attach', assistantId, { tool_ids: [pool[1]] })).status).toBe(200);
              const res = await send(route, assistantId, bad.body);
              expectRejected(res, {
                label: `bad ${route}`,
                path: [bad.field ?? 'tool_ids'],
                statuses: bad.statuses,
              });
              expect(await attached(assistantId)).toEqual([pool[1]]);
            },
          ),
          fuzzParams(),
        );
      },
      fuzzTimeout(),
    );
  });
});
