import { applyDecorators } from '@nestjs/common';
import {
  IsUrl,
  MaxLength,
  ValidateBy,
  buildMessage,
  type ValidationOptions,
} from 'class-validator';

/**
 * An absolute http(s) URL of at most `maxLength` characters. Host names without a TLD are
 * accepted here (e.g. `localhost`); whether the address may be called at all is the outbound
 * URL guard's decision (`common/http`), made when saved and again at connect time.
 */
export function IsHttpUrl(maxLength = 2048, options?: ValidationOptions): PropertyDecorator {
  return applyDecorators(
    IsUrl(
      { protocols: ['http', 'https'], require_protocol: true, require_tld: false, require_host: true },
      { message: '$property must be an http(s) URL', ...options },
    ),
    MaxLength(maxLength, options),
  );
}

export function isStringRecord(value: unknown, maxEntries: number): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const entries = Object.entries(value as Record<string, unknown>);
  return entries.length <= maxEntries && entries.every(([, v]) => typeof v === 'string');
}

/** A plain object whose values are all strings (HTTP headers), with at most `maxEntries` keys. */
export function IsStringRecord(maxEntries = 50, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStringRecord',
      constraints: [maxEntries],
      validator: {
        validate: (value: unknown) => isStringRecord(value, maxEntries),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be an object of string values with at most $constraint1 entries`,
          options,
        ),
      },
    },
    options,
  );
}
