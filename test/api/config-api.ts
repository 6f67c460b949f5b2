import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

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
