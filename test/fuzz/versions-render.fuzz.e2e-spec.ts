/**
 * Property-based fuzzing of the published-versions and render routes: `POST /assistant/render`,
 * `POST /assistant/publish`, `GET /assistant/versions`, `?version=` on details and runtime, and
 * `assistant_version` on inbound mappings. Valid input gets the documented answer; anything else a
 * clean 4xx in the envelope, never a 500, and nothing half-written.
 */
import fc from 'fast-check';
import {
  boundedText,
  chaosArb,
  fuzzParams,
  fuzzTimeout,
  hugeContextArb,
  hugeTemplateArb,
  START_INSTRUCTION_MAX_CHARS,
  loneSurrogateText,
  nestedJunk,
  safeJsonValue,
  tooDeep,
  uniquePhoneDigits,
  type Body,
} from '../utils/arbitraries';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import { describeResponse, expectClientOutcome, expectEnvelope } from './fuzz-harness';

/** Query values a client might send for an integer: valid, out of range, or not a number at all. */
const queryValueArb: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: -5, max: 5 }).map(String),
  fc.constantFrom(
    '',
    ' ',
    '1.5',
    '1e3',
    '0x10',
    'NaN',
    'Infinity',
    '-0',
    '2147483648',
    '9'.repeat(30),
  ),
  fc.string({ maxLength: 12 }),
  loneSurrogateText,
);

const callArb: fc.Arbitrary<Body> = fc
  .record(
    {
      caller_number: fc.stringMatching(/^\+?[0-9]{6,15}$/),
      inbound_number: fc.stringMatching(/^[0-9]{6,15}$/),
      room_name: boundedText(1, 60),
      inbound_id: fc.uuid(),
      call_type: fc.constant('inbound'),
    },
    { requiredKeys: [] },
  )
  .map((call) => call as Body);

const contextArb: fc.Arbitrary<Body> = fc
  .dictionary(fc.stringMatching(/^[a-z][a-z0-9_]{0,15}$/), safeJsonValue({ maxDepth: 2 }), {
    maxKeys: 6,
  })
  .map((context) => context as Body);

/** `MAX_RENDERED_PROMPT_BYTES` at its default. */
const MAX_PROMPT_BYTES = 262_144;

describe('versions and render routes (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let runtimeUser: TestUser;
  let assistantId: string;

  const prompt =
    'Hi {{context.name | default: "friend"}}, from {{call.caller_number}} in {{call.room_name}}.';

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser(['config', 'runtime']);
    runtimeUser = user;
    const res = await ctx
      .http()
      .post('/assistant/create')
      .set(user.auth)
      .send({
        assistant_name: 'Fuzz versions',
        assistant_description: 'd',
        assistant_prompt: prompt,
        assistant_start_instruction: 'Greet {{context.name}}',
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'v' },
      });
    if (res.status !== 200) throw new Error(`create: ${describeResponse(res)}`);
    assistantId = res.body.data.assistant_id as string;
    const published = await ctx
      .http()
      .post(`/assistant/publish/${assistantId}`)
      .set(user.auth)
      .send({});
    if (published.status !== 200) throw new Error(`publish: ${describeResponse(published)}`);
  });
  afterAll(() => ctx.close());

  const versionCount = async (): Promise<number> => {
    const res = await ctx.http().get(`/assistant/versions/${assistantId}`).set(user.auth);
    return res.body.data.total as number;
  };

  it(
    'render: valid {context, call} → 200 with every provided call value in the prompt; chaos never 500',
    async () => {
      const valid = fc.record({ context: contextArb, call: callArb }, { requiredKeys: [] });
      const arb = valid.chain((body) =>
        fc.oneof(
          fc.constant({ body: body, chaos: false }),
          chaosArb(body as Body).map((c) => ({ body: c, chaos: true })),
        ),
      );
      await fc.assert(
        fc.asyncProperty(arb, async ({ body, chaos }) => {
          const res = await ctx
            .http()
            .post(`/assistant/render/${assistantId}`)
            .set(user.auth)
            .send(body);
          if (chaos) return expectClientOutcome(res);
          expectEnvelope(res);
          if (res.status !== 200) throw new Error(`valid render refused: ${describeResponse(res)}`);
          const data = res.body.data as { prompt: string; missing: string[] };
          const call = (body.call ?? {}) as Body;
          if (typeof call.caller_number === 'string')
            expect(data.prompt).toContain(call.caller_number);
          if (typeof call.room_name === 'string') expect(data.prompt).toContain(call.room_name);
          expect(Array.isArray(data.missing)).toBe(true);
          const context = (body.context ?? {}) as Body;
          const name = context.name;
          if (name === undefined || name === null || name === '')
            expect(data.prompt).toContain('friend');
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'render: huge templates with huge context values → 200 within MAX_RENDERED_PROMPT_BYTES or 400 naming the limit, fast, never 500',
    async () => {
      const created = await ctx
        .http()
        .post('/assistant/create')
        .set(user.auth)
        .send({
          assistant_name: 'Fuzz huge templates',
          assistant_description: 'd',
          assistant_prompt: 'p',
          assistant_tts_model: 'cartesia',
          assistant_tts_config: { voice_id: 'v' },
        });
      if (created.status !== 200) throw new Error(`create: ${describeResponse(created)}`);
      const id = created.body.data.assistant_id as string;
      const arb = fc.record({
        prompt: hugeTemplateArb(),
        start: hugeTemplateArb(START_INSTRUCTION_MAX_CHARS),
        context: hugeContextArb,
        call: callArb,
      });
      await fc.assert(
        fc.asyncProperty(arb, async ({ prompt, start, context, call }) => {
          const updated = await ctx
            .http()
            .patch(`/assistant/update/${id}`)
            .set(user.auth)
            .send({ assistant_prompt: prompt, assistant_start_instruction: start });
          if (updated.status !== 200) throw new Error(`update: ${describeResponse(updated)}`);
          const res = await ctx
            .http()
            .post(`/assistant/render/${id}`)
            .set(user.auth)
            .send({ context, call });
          expectEnvelope(res);
          // A lower bound of the whole rendering: the blob alone, as often as the prompt names it.
          const blob = context.blob;
          const blobBytes = Buffer.byteLength(
            typeof blob === 'string' ? blob : JSON.stringify(blob),
          );
          const atLeast = (prompt.match(/\{\{\s*context\.blob\b/g) ?? []).length * blobBytes;
          if (res.status === 400) {
            expect(res.body.data.errors).toHaveLength(1);
            expect(['context', 'call']).toContain(res.body.data.errors[0].field);
            expect(res.body.data.errors[0].message).toMatch(
              new RegExp(`longer than MAX_RENDERED_PROMPT_BYTES \\(${MAX_PROMPT_BYTES} bytes\\)$`),
            );
            return;
          }
          if (res.status !== 200) throw new Error(`huge render: ${describeResponse(res)}`);
          expect(atLeast).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
          const data = res.body.data as { prompt: string; start_instruction: string };
          expect(Buffer.byteLength(data.prompt)).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
          expect(Buffer.byteLength(data.start_instruction)).toBeLessThanOrEqual(MAX_PROMPT_BYTES);
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(400),
  );

  it(
    'publish: a note of 0-500 characters → the next version; anything else → 400 and no version written',
    async () => {
      const noteArb: fc.Arbitrary<{ body: Body; ok: boolean }> = fc.oneof(
        boundedText(0, 500).map((note) => ({ body: { note }, ok: true })),
        fc.constant({ body: {}, ok: true }),
        fc
          .oneof(
            boundedText(501, 520),
            loneSurrogateText,
            fc.integer(),
            fc.boolean(),
            nestedJunk,
            tooDeep,
            fc.array(fc.string(), { maxLength: 2 }),
          )
          .map((note) => ({ body: { note }, ok: false })),
        fc
          .string({ minLength: 1, maxLength: 8 })
          .filter((k) => k !== 'note')
          .map((k) => ({ body: { [k]: 'x' }, ok: false })),
      );
      await fc.assert(
        fc.asyncProperty(noteArb, async ({ body, ok }) => {
          const before = await versionCount();
          const res = await ctx
            .http()
            .post(`/assistant/publish/${assistantId}`)
            .set(user.auth)
            .send(body);
          expectEnvelope(res);
          if (ok) {
            if (res.status !== 200)
              throw new Error(`valid publish refused: ${describeResponse(res)}`);
            expect(res.body.data.version).toBe(before + 1);
            expect(res.body.data.note).toBe(body.note ?? null);
            expect(await versionCount()).toBe(before + 1);
          } else {
            if (res.status !== 400) throw new Error(`invalid publish: ${describeResponse(res)}`);
            expect(await versionCount()).toBe(before);
          }
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it(
    '?version= on details and runtime, ?page/limit on versions: 200, 400 or 404, never 500',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          queryValueArb,
          queryValueArb,
          fc.constantFrom('details', 'runtime', 'versions'),
          async (a, b, route) => {
            const http = ctx.http();
            const res =
              route === 'versions'
                ? await http
                    .get(`/assistant/versions/${assistantId}`)
                    .query({ page: a, limit: b })
                    .set(user.auth)
                : await http
                    .get(`/assistant/${route}/${assistantId}`)
                    .query({ version: a })
                    .set((route === 'runtime' ? runtimeUser : user).auth);
            expectEnvelope(res);
            if (![200, 400, 404].includes(res.status))
              throw new Error(`${route} ${a} ${b}: ${describeResponse(res)}`);
            if (route !== 'versions' && /^[1-9][0-9]{0,8}$/.test(a)) {
              // A well-formed version number is 200 when it exists, 404 when it does not.
              expect([200, 404]).toContain(res.status);
            }
          },
        ),
        fuzzParams(),
      );
    },
    fuzzTimeout(),
  );

  it(
    'assign and update with assistant_version: an existing version pins it, a missing one is 404, junk is 400',
    async () => {
      const versionArb = fc.oneof(
        fc.constant<unknown>(null),
        fc.integer({ min: 1, max: 3 }),
        fc.integer({ min: 1000, max: 2_147_483_647 }),
        fc.oneof(fc.integer({ min: -3, max: 0 }), fc.double({ min: 1.1, max: 2.9, noNaN: true })),
        fc.oneof(fc.string({ maxLength: 4 }), fc.boolean(), nestedJunk, loneSurrogateText),
      );
      await fc.assert(
        fc.asyncProperty(versionArb, fc.boolean(), async (assistant_version, viaUpdate) => {
          const published = await versionCount();
          const expected =
            assistant_version === null
              ? 200
              : typeof assistant_version === 'number' &&
                  Number.isInteger(assistant_version) &&
                  assistant_version >= 1
                ? assistant_version <= published
                  ? 200
                  : 404
                : 400;
          const assign = (extra: Body) =>
            ctx
              .http()
              .post('/inbound/assign')
              .set(user.auth)
              .send({
                assistant_id: assistantId,
                service: 'exotel',
                inbound_config: { phone_number: uniquePhoneDigits() },
                ...extra,
              });
          let res;
          let inboundId: string | undefined;
          if (viaUpdate) {
            const created = await assign({});
            if (created.status !== 200) throw new Error(`assign: ${describeResponse(created)}`);
            inboundId = created.body.data.inbound_id as string;
            res = await ctx
              .http()
              .patch(`/inbound/update/${inboundId}`)
              .set(user.auth)
              .send({ assistant_version });
          } else {
            res = await assign({ assistant_version });
            if (res.status === 200) inboundId = res.body.data.inbound_id as string;
          }
          expectEnvelope(res);
          if (res.status !== expected)
            throw new Error(
              `assistant_version ${JSON.stringify(assistant_version)}: expected ${expected}, got ${describeResponse(res)}`,
            );
          if (inboundId) {
            const details = await ctx.http().get(`/inbound/details/${inboundId}`).set(user.auth);
            expect(details.body.data.assistant_version).toBe(
              expected === 200 ? assistant_version : null,
            );
            await ctx.http().delete(`/inbound/delete/${inboundId}`).set(user.auth);
          }
        }),
        fuzzParams(),
      );
    },
    fuzzTimeout(250),
  );
});
