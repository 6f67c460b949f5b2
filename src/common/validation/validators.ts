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
      {
        protocols: ['http', 'https'],
        require_protocol: true,
        require_tld: false,
        require_host: true,
      },
      { message: '$property must be an http(s) URL', ...options },
    ),
    MaxLength(maxLength, options),
  );
}

/**
 * Length as MySQL's VARCHAR counts it: Unicode code points. class-validator's `Length` skips
 * emoji variation selectors (U+FE0F), so a value it accepts could overflow its column.
 */
export const charLength = (value: string): number => [...value].length;

export function isCharLength(value: unknown, min: number, max: number): boolean {
  if (typeof value !== 'string') return false;
  const length = charLength(value);
  return length >= min && length <= max;
}

/** A string of `min`-`max` characters (code points). */
export function CharLength(
  min: number,
  max: number,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'charLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => isCharLength(value, min, max),
        defaultMessage: buildMessage(
          (each) =>
            min > 0
              ? `${each}$property must be ${min}-${max} characters long`
              : `${each}$property must be at most ${max} characters long`,
          options,
        ),
      },
    },
    options,
  );
}

export function isJsonObjectOfBytes(value: unknown, maxBytes: number): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes;
}

/** A JSON object (not an array, not null) whose JSON text is at most `maxBytes` bytes of UTF-8. */
export function IsJsonObject(maxBytes: number, options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isJsonObject',
      constraints: [maxBytes],
      validator: {
        validate: (value: unknown) => isJsonObjectOfBytes(value, maxBytes),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a JSON object of at most $constraint1 bytes`,
          options,
        ),
      },
    },
    options,
  );
}
