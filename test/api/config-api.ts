import { assistantBody } from '../fixtures/assistant';
import { strategyBody } from '../fixtures/strategy';
import { staticToolBody, webhookToolBody } from '../fixtures/tool';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { assistantApi } from './assistant-api';
import { dataOf } from './envelope';
import { routeNumber } from './inbound-api';
import { secretApi } from './secret-api';
import { toolApi } from './tool-api';

type Part = Record<string, Record<string, unknown>>;

/** `GET /config/export`'s data. */
export interface Bundle {
  revision: string;
  assistants: Part;
  tools: Part;
  strategies: Part;
  inbound: Part;
  secrets: string[];
}

/** The configuration-as-code routes as `user` calls them: `plan` and `apply` answer the raw response. */
export const configApi = (ctx: TestContext, user: TestUser) => ({
  exported: () =>
    dataOf<Bundle>('GET /config/export', ctx.http().get('/config/export').set(user.auth)),
  plan: (body: object) => ctx.http().post('/config/plan').set(user.auth).send(body),
  apply: (body: object) => ctx.http().post('/config/apply').set(user.auth).send(body),
});

/** A bundle without its revision, an assistant's tools as a set (one attach has no order). */
export const comparable = ({ revision: _revision, ...bundle }: Bundle) => ({
  ...bundle,
  assistants: Object.fromEntries(
    Object.entries(bundle.assistants).map(([name, a]) => [
      name,
      { ...a, tools: [...((a.tools as string[] | undefined) ?? [])].sort() },
    ]),
  ),
});

/** What `seedConfig` made: the mapping's number (the bundle's key) and its id. */
export interface SeededConfig {
  phone: string;
  mappingId: string;
}

/**
 * The configuration the config-bundle suites start from: a secret `CRM_TOKEN` (`secretValue`), a
 * webhook tool `lookup_order` sending it (`headers` added), a static tool `opening_hours`, the
 * assistant `Front desk` with both attached, the strategy `CRM`, and a mapping of a fresh number to
 * the assistant through the strategy.
 */
export async function seedConfig(
  ctx: TestContext,
  user: TestUser,
  secretValue: string,
  headers: Record<string, string> = {},
): Promise<SeededConfig> {
  await secretApi(ctx, user).create('CRM_TOKEN', secretValue);
  const tools = toolApi(ctx, user);
  const webhook = await tools.create(
    webhookToolBody({
      url: 'https://api.example.com/orders',
      headers: { Authorization: 'Bearer {{secret.CRM_TOKEN}}', ...headers },
    }),
  );
  const fixed = await tools.create(staticToolBody('opening_hours', '9-5'));
  const assistant = await assistantApi(ctx, user).create(assistantBody());
  await tools.attach(assistant.assistant_id, [webhook.tool_id, fixed.tool_id]);
  const strategy = strategyBody('https://crm.example.com/context', {}, { strategy_name: 'CRM' });
  const routed = await routeNumber(ctx, user, assistant.assistant_id, strategy);
  return { phone: routed.phone, mappingId: routed.inboundId };
}
