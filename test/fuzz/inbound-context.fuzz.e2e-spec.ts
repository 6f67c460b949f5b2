/**
 * Property tests for the strategy routes (create, update, dry-run test) and the inbound mapping
 * routes (assign, update).
 */
import fc from 'fast-check';
import { InboundContextStrategyEntity } from '../../src/inbound-context/inbound-context-strategy.entity';
import { InboundMappingEntity } from '../../src/inbound-context/inbound-mapping.entity';
import { assistantApi } from '../api/assistant-api';
import { strategyApi } from '../api/strategy-api';
import { assistantBody } from '../fixtures/assistant';
import { strategyBody } from '../fixtures/strategy';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import { startCustomerServer, type CustomerServer } from '../utils/customer-server';
import {
  applyMutation,
  chaosArb,
  expectedInbound,
  expectedStrategy,
  fuzzParams,
  fuzzTimeout,
  hugeContextArb,
  hugeTemplateArb,
  START_INSTRUCTION_MAX_CHARS,
  inboundAssignArb,
  mutationArb,
  phoneFormat,
  strategyCreateArb,
  strategyPatchArb,
  testStrategyArb,
  uniquePhoneDigits,
  type Body,
  type BodySpec,
  type FieldSpec,
  type Mutation,
  type Path,
} from '../utils/arbitraries';
import {
  describeResponse,
  expectClientOutcome,
  expectEnvelope,
  expectRejected,
  holds,
  mutatedArb,
  resourceRoutes,
  updateCaseArb,
  withoutMeta,
} from './fuzz-harness';

const m = (path: Path, value: unknown, label = 'out of range', statuses?: number[]): Mutation => ({
  label,
  path,
  value,
  statuses,
});

const strategyFields = (): FieldSpec[] => [
  { path: ['strategy_name'], kind: 'string', max: 100 },
  { path: ['strategy_type'], kind: 'enum', values: ['webhook'] },
  { path: ['strategy_config'], kind: 'object' },
  { path: ['strategy_config', 'url'], kind: 'string', max: 500 },
  { path: ['strategy_config', 'headers'], kind: 'object' },
  { path: ['strategy_config', 'timeout_seconds'], kind: 'number' },
  { path: ['strategy_config', 'fallback_context'], kind: 'object' },
  { path: ['is_active'], kind: 'boolean' },
];

const strategyOutOfRange = (): Mutation[] => [
  m(['strategy_name'], ''),
  m(['strategy_name'], 'n'.repeat(101)),
  m(['strategy_name'], '😀'.repeat(101)),
  m(['strategy_type'], 'http'),
  m(['strategy_config', 'timeout_seconds'], 0.49),
  m(['strategy_config', 'timeout_seconds'], 10.01),
  m(['strategy_config', 'timeout_seconds'], 0),
  m(['strategy_config', 'fallback_context'], { note: 'x'.repeat(16 * 1024) }, 'over 16 KB'),
  m(['strategy_config', 'url'], 'ftp://example.com/x'),
  m(['strategy_config', 'url'], `https://a.example/${'p'.repeat(500)}`),
  m(['strategy_config', 'headers'], { 'X-Inject': 'a\r\nb' }),
  m(['strategy_config', 'headers'], { 'Content-Length': '1' }),
  m(['strategy_config', 'headers'], { 'X-N': 5 }),
  m(
    ['strategy_config', 'headers'],
    Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-${i}`, 'v'])),
  ),
];

const strategyCreateSpec: BodySpec = {
  fields: strategyFields,
  required: () => [
    ['strategy_name'],
    ['strategy_type'],
    ['strategy_config'],
    ['strategy_config', 'url'],
  ],
  closedObjects: () => [[], ['strategy_config']],
  outOfRange: strategyOutOfRange,
};

const strategyUpdateSpec: BodySpec = {
  fields: strategyFields,
  // A strategy always has a URL: an update may leave it out, never set it to null.
  required: () => [['strategy_config', 'url']],
  requiredNullOnly: true,
  closedObjects: () => [[], ['strategy_config']],
  outOfRange: strategyOutOfRange,
};

const inboundFields = (): FieldSpec[] => [
  { path: ['assistant_id'], kind: 'uuid' },
  { path: ['inbound_context_strategy_id'], kind: 'uuid' },
  { path: ['service'], kind: 'enum', values: ['exotel'] },
  { path: ['inbound_config'], kind: 'object' },
  { path: ['inbound_config', 'phone_number'], kind: 'string', max: 40 },
  { path: ['is_active'], kind: 'boolean' },
];

const inboundOutOfRange = (): Mutation[] => [
  m(['inbound_config', 'phone_number'], '1234', 'fewer than 5 digits'),
  m(['inbound_config', 'phone_number'], '1'.repeat(21), 'more than 20 digits'),
  m(['inbound_config', 'phone_number'], 'call me maybe'),
  m(['inbound_config', 'phone_number'], ''),
  m(
    ['inbound_config', 'phone_number'],
    `+${'1'.repeat(10)}${' '.repeat(31)}`,
    'over 40 characters',
  ),
  m(['service'], 'twilio'),
  m(['assistant_id'], '00000000-0000-4000-8000-000000000000', 'unknown assistant', [404]),
  m(
    ['inbound_context_strategy_id'],
    '00000000-0000-4000-8000-000000000000',
    'unknown strategy',
    [404],
  ),
];

const inboundAssignSpec: BodySpec = {
  fields: inboundFields,
  required: () => [
    ['assistant_id'],
    ['service'],
    ['inbound_config'],
    ['inbound_config', 'phone_number'],
  ],
  closedObjects: () => [[], ['inbound_config']],
  outOfRange: inboundOutOfRange,
};

const inboundUpdateSpec: BodySpec = {
  ...inboundAssignSpec,
  required: () => [],
  requiredNullOnly: true,
};

/** `MAX_RENDERED_PROMPT_BYTES` at its default. */
const MAX_PROMPT_BYTES = 262_144;

describe('inbound context routes (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let server: CustomerServer;
  let hookUrl: string;
  const assistantIds: string[] = [];
  const strategyIds: string[] = [];

  beforeAll(async () => {
    [ctx, server] = await Promise.all([createTestApp(), startCustomerServer()]);
    server.respond('/lookup', { status: 200, body: { context: { name: 'Ada', tier: 'gold' } } });
    hookUrl = server.url('/lookup');
    user = await ctx.newUser();
    for (let i = 0; i < 3; i++) {
      const assistant = await assistantApi(ctx, user).create(
        assistantBody({ assistant_name: `A${i}`, assistant_prompt: 'Hi {{context.name}}' }),
      );
      assistantIds.push(assistant.assistant_id);
      const strategy = await strategyApi(ctx, user).create(
        strategyBody(hookUrl, {}, { strategy_name: `S${i}` }),
      );
      strategyIds.push(strategy.strategy_id);
    }
  });
  afterAll(async () => {
    await ctx.close();
    await server.close();
  });

  describe('strategies', () => {
    const routes = resourceRoutes(() => ({ ctx, user }), {
      entity: InboundContextStrategyEntity,
      createPath: '/inbound_context_strategy/create',
      base: '/inbound_context_strategy',
      idKey: 'strategy_id',
    });
    const { details } = routes;

    it(
      'valid create bodies → 200, read back with defaults and masked headers',
      () =>
        holds(
          strategyCreateArb(hookUrl),
          routes.validCreateStored(async (res, body) => {
            const read = await details(res.body.data.strategy_id as string);
            expect(withoutMeta(read.body.data, 'strategy_id')).toEqual(expectedStrategy(body));
          }),
        ),
      fuzzTimeout(),
    );

    it(
      'mutated create bodies → 4xx naming the field, no strategy written',
      () =>
        holds(
          mutatedArb(strategyCreateArb(hookUrl), strategyCreateSpec),
          routes.mutatedCreateRefused,
        ),
      fuzzTimeout(),
    );

    it(
      'valid update bodies → 200 and merged; mutated ones → 4xx and the strategy unchanged; chaos never 500',
      () =>
        holds(
          updateCaseArb(strategyCreateArb(hookUrl), strategyPatchArb(hookUrl), strategyUpdateSpec),
          routes.updateCaseHolds(async (res, before, patch, id) => {
            const config: Body = {
              ...(before.strategy_config as Body),
              ...((patch.strategy_config as Body) ?? {}),
            };
            // `fallback_context: null` removes it: a read then leaves the key out.
            if (config.fallback_context === null) delete config.fallback_context;
            const expected = { ...withoutMeta(before), ...patch, strategy_config: config };
            expect(withoutMeta(res.body.data)).toEqual(expected);
            expect(withoutMeta((await details(id)).body.data)).toEqual(expected);
          }),
        ),
      fuzzTimeout(),
    );

    it(
      'dry-run test bodies: valid → 200 with the webhook context; mutated → 4xx naming the field',
      async () => {
        const testSpec: BodySpec = {
          fields: () => [
            { path: ['caller_number'], kind: 'string', max: 64 },
            { path: ['inbound_number'], kind: 'string', max: 40 },
            { path: ['assistant_id'], kind: 'uuid' },
          ],
          required: () => [],
          closedObjects: () => [[]],
          outOfRange: () => [
            m(['assistant_id'], '00000000-0000-4000-8000-000000000000', 'unknown assistant', [404]),
          ],
        };
        const arb = testStrategyArb(assistantIds).chain((body) =>
          fc
            .option(mutationArb(testSpec, body), { nil: null, freq: 2 })
            .map((mutation) => ({ body, mutation })),
        );
        await fc.assert(
          fc.asyncProperty(arb, async ({ body, mutation }) => {
            const res = await ctx
              .http()
              .post(`/inbound_context_strategy/test/${strategyIds[0]}`)
              .set(user.auth)
              .send(mutation ? applyMutation(body, mutation) : body);
            if (mutation) return expectRejected(res, mutation);
            expectEnvelope(res);
            if (res.status !== 200)
              throw new Error(`valid test body refused: ${describeResponse(res)}`);
            expect(res.body.data).toMatchObject({
              status: 'success',
              error: null,
              context_keys: ['name', 'tier'],
              context: { name: 'Ada', tier: 'gold' },
            });
          }),
          fuzzParams(),
        );
      },
      fuzzTimeout(),
    );
    it(
      'dry run with huge templates and huge context values: 200, the preview within MAX_RENDERED_PROMPT_BYTES, prompt_too_large with the fallback past it',
      async () => {
        const FALLBACK = { blob: 'fb' };
        let context: Body = {};
        server.respond('/huge', () => ({ body: { context } }));
        const assistant = await assistantApi(ctx, user).create(
          assistantBody({ assistant_name: 'Huge', assistant_prompt: 'p' }),
        );
        const strategy = await strategyApi(ctx, user).create(
          strategyBody(server.url('/huge'), { fallback_context: FALLBACK }, { strategy_name: 'H' }),
        );
        const arb = fc.record({
          prompt: hugeTemplateArb(),
          start: hugeTemplateArb(START_INSTRUCTION_MAX_CHARS),
          context: hugeContextArb,
        });
        await fc.assert(
          fc.asyncProperty(arb, async (sample) => {
            context = sample.context;
            const updated = await ctx
              .http()
              .patch(`/assistant/update/${assistant.assistant_id}`)
              .set(user.auth)
              .send({ assistant_prompt: sample.prompt, assistant_start_instruction: sample.start });
            if (updated.status !== 200) throw new Error(`update: ${describeResponse(updated)}`);
            const res = await ctx
              .http()
              .post(`/inbound_context_strategy/test/${strategy.strategy_id}`)
              .set(user.auth)
              .send({ assistant_id: assistant.assistant_id });
            expectEnvelope(res);
            if (res.status !== 200) throw new Error(`huge dry run: ${describeResponse(res)}`);
            const data = res.body.data as {
              status: string;
              error: string | null;
              fallback_used: boolean;
              context: Body | null;
              prompt_preview: string;
              start_instruction_preview: string;
            };
            expect(Buffer.byteLength(data.prompt_preview)).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
            expect(Buffer.byteLength(data.start_instruction_preview)).toBeLessThanOrEqual(
              MAX_PROMPT_BYTES,
            );
            const blob = sample.context.blob;
            const blobBytes = Buffer.byteLength(
              typeof blob === 'string' ? blob : JSON.stringify(blob),
            );
            const uses = (template: string) =>
              (template.match(/\{\{\s*context\.blob\b/g) ?? []).length;
            const atLeast = Math.max(uses(sample.prompt), uses(sample.start)) * blobBytes;
            if (data.status === 'success') {
              expect(atLeast).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
              expect(data).toMatchObject({
                error: null,
                fallback_used: false,
                context: sample.context,
              });
            } else {
              expect(data.error).toMatch(/^prompt_too_large: the context makes assistant_/);
              expect(data).toMatchObject({ fallback_used: true, context: null });
            }
          }),
          fuzzParams(),
        );
      },
      fuzzTimeout(500),
    );
  });

  describe('inbound mappings', () => {
    const routes = resourceRoutes(() => ({ ctx, user }), {
      entity: InboundMappingEntity,
      createPath: '/inbound/assign',
      base: '/inbound',
      idKey: 'inbound_id',
    });
    const { count, create: assign, details } = routes;

    it(
      'valid assign bodies → 200, read back with the number normalized',
      () =>
        holds(
          inboundAssignArb(assistantIds, strategyIds),
          routes.validCreateStored(async (res, body) => {
            const read = await details(res.body.data.inbound_id as string);
            expect(withoutMeta(read.body.data, 'inbound_id')).toEqual(expectedInbound(body));
          }),
        ),
      fuzzTimeout(),
    );

    it(
      'mutated assign bodies → 4xx naming the field, no mapping written; chaos never 500',
      async () => {
        const arb = inboundAssignArb(assistantIds, strategyIds).chain((body) =>
          fc.oneof(
            mutationArb(inboundAssignSpec, body).map((mutation) => ({
              body: applyMutation(body, mutation),
              mutation: mutation,
            })),
            chaosArb(body).map((b) => ({ body: b, mutation: null as Mutation | null })),
          ),
        );
        await fc.assert(
          fc.asyncProperty(arb, async ({ body, mutation }) => {
            const before = await count();
            const res = await assign(body);
            if (mutation) expectRejected(res, mutation);
            else expectClientOutcome(res);
            expect(await count()).toBe(before + (res.status === 200 ? 1 : 0));
          }),
          fuzzParams(),
        );
      },
      fuzzTimeout(),
    );

    it(
      'update bodies: valid → 200 and stored; mutated → 4xx and the mapping unchanged; chaos never 500',
      async () => {
        const patchArb = fc.record(
          {
            assistant_id: fc.constantFrom(...assistantIds),
            inbound_context_strategy_id: fc.constantFrom(...strategyIds, null),
            is_active: fc.boolean(),
            inbound_config: phoneFormat.map((f) => ({ phone_number: f(uniquePhoneDigits()) })),
          },
          { requiredKeys: [] },
        );
        await holds(
          updateCaseArb(inboundAssignArb(assistantIds, strategyIds), patchArb, inboundUpdateSpec),
          routes.updateCaseHolds(async (_res, before, patch, id) => {
            const merged = { ...withoutMeta(before, 'inbound_id'), ...patch };
            const expected = expectedInbound({ ...merged, service: 'exotel' });
            expect(withoutMeta((await details(id)).body.data, 'inbound_id')).toEqual(expected);
          }),
        );
      },
      fuzzTimeout(),
    );
  });
});
