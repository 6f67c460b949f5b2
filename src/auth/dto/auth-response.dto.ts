import { ApiProperty } from '@nestjs/swagger';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../common/auth/auth-user';

export class CreatedKeyDto {
  /** The API key. Shown once: only its hash is stored. */
  api_key: string;
  api_key_id: string;
  /** `vac_` plus four characters, to tell keys apart later. */
  key_prefix: string;
  user_id: string;
  /** What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`). */
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: ApiKeyScope[];
}

export class AuthUserDto {
  user_id: string;
  user_name: string;
  user_email: string;
  org_name: string | null;
  /** The key this request authenticated with. */
  api_key_id: string;
  /** What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`). */
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: ApiKeyScope[];
}

export class ApiKeyInfoDto {
  api_key_id: string;
  key_prefix: string;
  created_at: string;
  revoked_at: string | null;
  /** What the key may do: `config` (management routes), `runtime` (`GET /assistant/runtime/:id`). */
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  scopes: ApiKeyScope[];
}

export class WebhookSecretDto {
  /** Standard Webhooks signing secret (`whsec_...`): verify `webhook-signature` with it. */
  secret: string;
  /** During a rotation's grace period, the previous secret still signs; until then both signatures are sent. */
  previous_secret_expires_at: string | null;
}

/** `data` of `GET /auth/keys`: the caller's keys, newest first, in the envelope of every list. */
export class ApiKeyListDto {
  items: ApiKeyInfoDto[];
  /** Number of keys the caller has, revoked ones included. */
  total: number;
  page: number;
  limit: number;
}
