import { applyDecorators, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import { API_KEY_SCOPES, type ApiKeyScope } from '../common/auth/auth-user';

export const DEFAULT_API_KEY_SCOPES: ApiKeyScope[] = ['config'];

export const REQUIRED_SCOPE = 'auth:required-scope';

/**
 * The scope a route needs. Routes without it need `config`; `null` lets any valid key through
 * (`GET /auth/check-key`, so every key can see what it is).
 */
export const RequiresScope = (scope: ApiKeyScope | null) =>
  applyDecorators(
    SetMetadata(REQUIRED_SCOPE, scope),
    // Documented too, so a client can tell which key a route takes (`config` when not declared).
    ApiExtension('x-api-key-scope', scope ?? 'any'),
  );

/** Stored as comma-separated text in a fixed order (`config,runtime`). */
export function serializeScopes(scopes: readonly ApiKeyScope[]): string {
  return API_KEY_SCOPES.filter((scope) => scopes.includes(scope)).join(',');
}

export function parseScopes(stored: string | null | undefined): ApiKeyScope[] {
  const parts = (stored ?? '').split(',').map((part) => part.trim());
  return API_KEY_SCOPES.filter((scope) => parts.includes(scope));
}
