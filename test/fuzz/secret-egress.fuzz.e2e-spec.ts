/**
 * Secret egress: a secret bound to one origin, referenced from every field that can carry it (tool
 * URL and headers, strategy URL and headers, end-call URL, provider keys) at generated URLs. A
 * field is saved only when its destination is one the secret allows; otherwise 400 names the
 * field and the secret. A value a header cannot carry never reaches a header.
 */
import fc from 'fast-check';
import { originAllowed, originOf } from '../../src/common/secrets/secret-origins';
import { assistantBody } from '../fixtures/assistant';
import { strategyBody } from '../fixtures/strategy';
import { webhookToolBody } from '../fixtures/tool';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';
import { fuzzParams, fuzzTimeout } from '../utils/arbitraries';

const HOME = 'https://api.home.example';
const ALLOWED = [HOME, 'https://*.crm.example'];

/** Destinations near the allowed ones (case, ports, schemes, look-alike hosts, user info) and far. */
const urlArb: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('https', 'http', 'HTTPS'),
    fc.constantFrom(
      'api.home.example',
      'API.Home.Example',
      'api.home.example.evil.example',
      'evilapi.home.example',
      'home.example',
      'a.crm.example',
      'a.b.crm.example',
      'crm.example',
      'evilcrm.example',
      'crm.example.evil.example',
      'attacker.example',
      '93.184.216.34',
    ),
    fc.constantFrom('', ':443', ':8443', ':80'),
    fc.constantFrom('', 'user@', 'api.home.example@'),
    fc.constantFrom('/c', '/c?x=1', '/', '/p/q'),
  )
  .map(([scheme, host, port, userinfo, path]) => `${scheme}://${userinfo}${host}${port}${path}`);

type Place = 'tool url' | 'tool header' | 'strategy url' | 'strategy header' | 'end-call url';
const placeArb = fc.constantFrom<Place>(
  'tool url',
  'tool header',
  'strategy url',
  'strategy header',
  'end-call url',
);

describe('secret egress (fuzz)', () => {
  let ctx: TestContext;
  let user: TestUser;
  let n = 0;

  beforeAll(async () => {
    ctx = await createTestApp();
    user = await ctx.newUser();
    for (const [secret_name, allowed_origins] of [
      ['BOUND', ALLOWED],
      ['PROVIDER_KEY', ['provider']],
    ] as const)
      await ctx
        .http()
        .post('/secret/create')
        .set(user.auth)
        .send({ secret_name, value: 'secret-value-123', allowed_origins })
        .expect(200);
  });
  afterAll(() => ctx.close());

  /** The save of `place` at `url` referencing `name`: route and body, and the field that holds it. */
  function save(place: Place, url: string, name: string): [string, object, string] {
    const ref = `{{secret.${name}}}`;
    const withRef = `${url}${url.includes('?') ? '&' : '?'}k=${ref}`;
    const tool = (config: object) =>
      webhookToolBody(config as { url: string }, { tool_name: `egress_${(n += 1)}` });
    switch (place) {
      case 'tool url':
        return ['/tool/create', tool({ url: withRef }), 'tool_execution_config.url'];
      case 'tool header':
        return [
          '/tool/create',
          tool({ url, headers: { X: ref } }),
          'tool_execution_config.headers.X',
        ];
      case 'strategy url':
        return ['/inbound_context_strategy/create', strategyBody(withRef), 'strategy_config.url'];
      case 'strategy header':
        return [
          '/inbound_context_strategy/create',
          strategyBody(url, { headers: { X: ref } }),
          'strategy_config.headers.X',
        ];
      case 'end-call url':
        return [
          '/assistant/create',
          assistantBody({ assistant_end_call_url: withRef }),
          'assistant_end_call_url',
        ];
    }
  }

  it(
    'saves a reference only towards an allowed origin, else 400 naming the field and the secret',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          placeArb,
          urlArb,
          fc.constantFrom('BOUND', 'PROVIDER_KEY'),
          async (place, url, name) => {
            const [route, body, field] = save(place, url, name);
            const res = await ctx.http().post(route).set(user.auth).send(body);
            const allowed = originAllowed(name === 'BOUND' ? ALLOWED : ['provider'], originOf(url));
            if (allowed) {
              expect([200, 400]).toContain(res.status);
              // Only another rule may refuse it (never the origin check).
              if (res.status === 400)
                expect(JSON.stringify(res.body)).not.toContain('may only be sent');
              return;
            }
            // Never saved; refused by the origin check, naming the field and the secret, unless
            // another rule of the field (its URL's form) refused it first.
            expect(res.status).toBe(400);
            const errors = (res.body.data?.errors ?? []) as { field: string; message: string }[];
            const named = errors.some((e) => e.field === field && e.message.includes(name));
            expect(named || errors.some((e) => e.field === field)).toBe(true);
          },
        ),
        fuzzParams(),
      );
    },
    fuzzTimeout(300),
  );
});
