import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { ValidateBy } from 'class-validator';
import {
  MAX_ALLOWED_ORIGINS,
  normaliseOrigin,
  PROVIDER,
} from '../../common/secrets/secret-origins';

/** Why `value` is not a list of allowed origins, or null when it is one. */
export function allowedOriginsProblem(value: unknown): string | null {
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_ALLOWED_ORIGINS)
    return `must be an array of 1-${MAX_ALLOWED_ORIGINS} origins`;
  for (const [i, item] of value.entries()) {
    if (typeof item !== 'string' || normaliseOrigin(item) === null)
      return `[${i}] must be an origin such as https://api.example.com or https://*.example.com (scheme, host and port only), or "provider"`;
  }
  if (value.includes(PROVIDER) && value.length > 1)
    return 'must be ["provider"] alone: a provider key is never sent to an origin';
  return null;
}

/** 1-20 origins (`https://api.example.com`, `https://*.example.com`), or `["provider"]`. */
export function IsAllowedOrigins(): PropertyDecorator {
  return ValidateBy({
    name: 'isAllowedOrigins',
    validator: {
      validate: (value: unknown) => allowedOriginsProblem(value) === null,
      defaultMessage: (args) => `$property${allowedOriginsProblem(args?.value) ?? ' is invalid'}`,
    },
  });
}

/** The origins as stored: each normalised (lower-case host, no default port), duplicates dropped. */
export function normaliseOrigins(origins: readonly string[]): string[] {
  return [...new Set(origins.map((origin) => normaliseOrigin(origin) ?? origin))];
}

/** The OpenAPI description of `allowed_origins`, shared by the create and update bodies. */
export const ALLOWED_ORIGINS_PROPERTY: ApiPropertyOptions = {
  type: [String],
  minItems: 1,
  maxItems: MAX_ALLOWED_ORIGINS,
  example: ['https://api.example.com', 'https://*.example.com'],
  description:
    'Where the value may be sent: origins (scheme, host, optional port; `*.` for any subdomain) of ' +
    'the URLs that may reference it, or `["provider"]` for a provider `api_key`, resolved only by ' +
    'the runtime read. Left out on create, the secret is bound to the origin of the first field ' +
    'that references it (`provider` for an `api_key`).',
};

export const ApiAllowedOrigins = (required: boolean): PropertyDecorator =>
  ApiProperty({ ...ALLOWED_ORIGINS_PROPERTY, required });
