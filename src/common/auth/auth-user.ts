/**
 * What a key may do. `config`: every management route (assistants, tools, strategies, mappings,
 * logs, the caller's keys and webhook secret). `runtime`: `GET /assistant/runtime/:id` only, the
 * one read that returns provider keys in clear, meant for the call stack.
 */
export const API_KEY_SCOPES = ['config', 'runtime'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/**
 * The authenticated caller, attached to the request by the API key guard. Declared here, below
 * every feature, so a route, the audit trail or the idempotency store can name who is calling
 * without depending on the module that authenticates.
 */
export interface AuthUser {
  user_id: string;
  user_name: string;
  user_email: string;
  org_name: string | null;
  api_key_id: string;
  /** The key's scopes; cached with the rest, so a cache hit knows them too. */
  scopes: ApiKeyScope[];
}
