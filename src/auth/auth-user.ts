import type { ApiKeyScope } from './api-key-scope';

/** The authenticated caller, attached to the request by the API key guard. */
export interface AuthUser {
  user_id: string;
  user_name: string;
  user_email: string;
  org_name: string | null;
  api_key_id: string;
  /** The key's scopes; cached with the rest, so a cache hit knows them too. */
  scopes: ApiKeyScope[];
}
