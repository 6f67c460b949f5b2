import { applyDecorators } from '@nestjs/common';
import { ApiProperty, type ApiPropertyOptions } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  IsUrl,
  IsUUID,
  MaxLength,
  ValidateBy,
  ValidateNested,
  buildMessage,
  isIn,
  isObject,
  isString,
} from 'class-validator';
import { configuredPhoneRegion } from '../../config/app-config';
import { referenceInOrigin, referenceInOriginMessage } from '../secrets/secret-reference';
import { IsHttpHeaders } from '../http/header-validators';
import { parseIsoTimestamp } from '../time/iso';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS, PHONE_NUMBER_MAX_LENGTH } from '../../contracts/limits';
import { canonicalPhoneNumber } from './phone-number';
import { type Body, Optional, type PresenceOptions, presence } from './presence';

/**
 * The rules request DTOs are written in. Each decorator applies the class-validator rules and
 * documents the same constraints in the OpenAPI schema, so a field's contract is stated once.
 * Presence (required, `optional`, `nullable`, `requiredWhen`) is the same everywhere: see
 * `presence`, whose `Optional` DTOs also import from here.
 */

export { Optional, type OptionalOptions, type PresenceOptions } from './presence';

/**
 * Length as MySQL's VARCHAR counts it: Unicode code points. class-validator's `Length` skips
 * emoji variation selectors (U+FE0F), so a value it accepts could overflow its column.
 */
const charLength = (value: string): number => [...value].length;

function isCharLength(value: unknown, min: number, max: number): boolean {
  if (typeof value !== 'string') return false;
  const length = charLength(value);
  return length >= min && length <= max;
}

const lengthMessage = (min: number, max: number): string =>
  min > 0
    ? `$property must be ${min}-${max} characters long`
    : `$property must be at most ${max} characters long`;

/**
 * A string of `min`-`max` characters (code points), with one error per failure: missing, not a
 * string, or out of bounds.
 */
export function ValidateText(
  min: number,
  max: number,
  options: PresenceOptions = {},
): PropertyDecorator {
  const { decorator, skips } = presence(options);
  return applyDecorators(
    ApiProperty({ type: String, maxLength: max, ...(min > 0 && { minLength: min }) }),
    decorator,
    ValidateBy({
      name: 'isText',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => skips(value) || isCharLength(value, min, max),
        defaultMessage: (args) =>
          isString(args?.value) ? lengthMessage(min, max) : '$property must be a string',
      },
    }),
  );
}

/** One of `values`. */
export function ValidateEnum(
  values: readonly string[],
  options: PresenceOptions = {},
): PropertyDecorator {
  const { decorator, skips } = presence(options);
  return applyDecorators(
    ApiProperty({ enum: values }),
    decorator,
    ValidateBy({
      name: 'isIn',
      constraints: [values],
      validator: {
        validate: (value: unknown) => skips(value) || isIn(value, values),
        defaultMessage: () => `$property must be one of the following values: ${values.join(', ')}`,
      },
    }),
  );
}

/**
 * A nested object validated with the class `type` returns (given the body being transformed, so
 * the class may depend on a sibling such as a provider name). A `null` that counts as absent is
 * reported once, not also as a nested value that is neither object nor array.
 */
export function ValidateNestedObject(
  type: (body: Body | undefined) => new () => object,
  options: PresenceOptions & { schema?: ApiPropertyOptions } = {},
): PropertyDecorator {
  const { schema, ...presenceOptions } = options;
  const { decorator, skips } = presence(presenceOptions);
  return applyDecorators(
    ApiProperty(schema ?? { type: () => type(undefined) }),
    decorator,
    ValidateBy({
      name: 'isObject',
      validator: {
        validate: (value: unknown) => skips(value) || isObject(value),
        defaultMessage: () => '$property must be an object',
      },
    }),
    ValidateNested(),
    // Only a conditionally required object turns `null` into "missing": elsewhere an optional
    // `null` is kept, since on an update it means "reset to the defaults".
    ...(presenceOptions.requiredWhen
      ? [Transform(({ value }: { value: unknown }) => (value === null ? undefined : value))]
      : []),
    Type((transform) => type(transform?.object as Body | undefined)),
  );
}

/** A UUID (any version), or with `each` an array of them. */
export function ValidateUuid(
  options: { optional?: boolean; nullable?: boolean; each?: boolean } = {},
): PropertyDecorator {
  const { optional, nullable, each } = options;
  return applyDecorators(
    ApiProperty({ type: each ? [String] : String, format: 'uuid' }),
    ...(optional ? [Optional({ nullable })] : []),
    IsUUID('all', { each }),
  );
}

/**
 * An absolute http(s) URL of at most `maxLength` characters. Host names without a TLD are
 * accepted here (e.g. `localhost`); whether the address may be called at all is the outbound
 * URL guard's decision (`common/http`), made when saved and again at connect time.
 */
export function ValidateHttpUrl(
  maxLength: number,
  options: { optional?: boolean; nullable?: boolean } = {},
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: String, maxLength }),
    ...(options.optional ? [Optional({ nullable: options.nullable })] : []),
    // The address is judged without resolving secrets: {{secret.NAME}} only after the host.
    ValidateBy({
      name: 'noSecretReferenceInOrigin',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || !referenceInOrigin(value),
        defaultMessage: (args) => referenceInOriginMessage(args?.property ?? 'url'),
      },
    }),
    IsUrl(
      {
        protocols: ['http', 'https'],
        require_protocol: true,
        require_tld: false,
        require_host: true,
      },
      { message: '$property must be an http(s) URL' },
    ),
    MaxLength(maxLength),
  );
}

/**
 * Custom headers for a customer webhook, kept exactly as sent (see `AsSent`): an object of string
 * values, or with `allowNull` (an update patch) `null` to delete a stored header.
 */
export function ValidateHeaders(options: {
  max: number;
  allowNull?: boolean;
  optional?: boolean;
  nullable?: boolean;
}): PropertyDecorator {
  const { max, allowNull = false, optional, nullable } = options;
  return applyDecorators(
    ApiProperty({
      type: 'object',
      additionalProperties: { type: 'string', ...(allowNull && { nullable: true }) },
    }),
    ...(optional ? [Optional({ nullable })] : []),
    IsHttpHeaders({ maxEntries: max, allowNull }),
    AsSent(),
  );
}

function isJsonObjectOfBytes(value: unknown, maxBytes: number): boolean {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  return Buffer.byteLength(JSON.stringify(value), 'utf8') <= maxBytes;
}

/** A JSON object (not an array, not null) whose JSON text is at most `maxBytes` bytes of UTF-8. */
export function ValidateJsonObject(
  maxBytes: number,
  options: { optional?: boolean; nullable?: boolean } = {},
): PropertyDecorator {
  return applyDecorators(
    ApiProperty({ type: 'object', additionalProperties: true }),
    ...(options.optional ? [Optional({ nullable: options.nullable })] : []),
    ValidateBy({
      name: 'isJsonObject',
      constraints: [maxBytes],
      validator: {
        validate: (value: unknown) => isJsonObjectOfBytes(value, maxBytes),
        defaultMessage: buildMessage(
          (each) => `${each}$property must be a JSON object of at most $constraint1 bytes`,
        ),
      },
    }),
  );
}

/**
 * An ISO 8601 timestamp such as `2025-01-31T09:30:00Z`, `2025-01-31T15:00:00+05:30` or
 * `2025-01-31`: exactly what `parseIsoTimestamp` reads, so a value that passes can be parsed.
 * (class-validator's `IsISO8601` also takes week dates and `24:00`, which the parser refuses.)
 */
export function ValidateIso8601(options: { optional?: boolean } = {}): PropertyDecorator {
  return applyDecorators(
    // No example: Swagger UI would pre-fill it into the query, and a fixed date filters out
    // every entry that does not fall on it.
    ApiProperty({ type: String }),
    ...(options.optional ? [Optional()] : []),
    ValidateBy({
      name: 'isIsoTimestamp',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && parseIsoTimestamp(value) !== null,
        defaultMessage: () => '$property must be an ISO 8601 timestamp, e.g. 2025-01-31T09:30:00Z',
      },
    }),
  );
}

/**
 * A dialled number in any formatting (`+91 80 1234 5678`, `080 1234 5678`, `0091 80 1234 5678`)
 * that parses as a phone number (`canonicalPhoneNumber`): the one place an unparseable number is
 * refused, with the field's name.
 */
export function ValidatePhoneNumber(): PropertyDecorator {
  return applyDecorators(
    ValidateText(0, PHONE_NUMBER_MAX_LENGTH),
    ValidateBy({
      name: 'isPhoneNumber',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && canonicalPhoneNumber(value) !== null,
        defaultMessage: () =>
          `$property must be a phone number: +<country code> <number>, or a national number of ${configuredPhoneRegion()} (${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits)`,
      },
    }),
  );
}

/**
 * Keeps a free-form JSON property exactly as sent. Without it class-transformer walks untyped
 * objects and arrays itself: it drops keys such as `toString`, and throws (a 500) on an object with
 * a `constructor` key. `Type(() => Boolean)` makes its walk a cheap `Boolean(x)` that cannot throw
 * or recurse; the transform then puts the original value back.
 */
export const AsSent = (): PropertyDecorator =>
  applyDecorators(
    Type(() => Boolean),
    Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]),
  );
