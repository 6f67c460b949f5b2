import { ValidateBy, type ValidationArguments, type ValidationOptions } from 'class-validator';
import { jsonDepth } from '../../common/validation/json-depth';
import {
  DEDUPE_KEY_PATH_MAX_LENGTH,
  DEDUPE_KEY_PATH_PATTERN,
  MAX_DEDUPE_KEY_PATHS,
  MAX_STATIC_VALUE_DEPTH,
  MAX_STATIC_VALUE_JSON_LENGTH,
} from '../tool.constants';

function jsonLength(value: unknown): number {
  try {
    return JSON.stringify(value)?.length ?? Infinity;
  } catch {
    return Infinity;
  }
}

/** True for any JSON value except `null`: string, finite number, boolean, object, array. */
export function isNonNullJsonValue(value: unknown): boolean {
  if (typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  return value !== null && typeof value === 'object';
}

/** A static return value: any JSON value but `null`, bounded in size and in nesting depth. */
export function IsStaticValue(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isStaticValue',
      validator: {
        validate: (value: unknown) =>
          isNonNullJsonValue(value) &&
          jsonDepth(value, MAX_STATIC_VALUE_DEPTH) <= MAX_STATIC_VALUE_DEPTH &&
          jsonLength(value) <= MAX_STATIC_VALUE_JSON_LENGTH,
        defaultMessage: (args?: ValidationArguments) => {
          const property = args?.property ?? 'value';
          if (!isNonNullJsonValue(args?.value))
            return `${property} is required and must be a string, number, boolean, object or array (not null)`;
          if (jsonDepth(args?.value, MAX_STATIC_VALUE_DEPTH) > MAX_STATIC_VALUE_DEPTH)
            return `${property} must not nest objects and arrays more than ${MAX_STATIC_VALUE_DEPTH} levels deep`;
          return `${property} must serialize to at most ${MAX_STATIC_VALUE_JSON_LENGTH} characters of JSON`;
        },
      },
    },
    options,
  );
}

/**
 * Set by `CreateToolDto.tool_parameters`' transform on every parameter whose name an earlier one
 * already uses, so the error lands on `tool_parameters[i].name` rather than on the whole array.
 * A symbol key is invisible to whitelisting and to serialization.
 */
export const DUPLICATE_NAME = Symbol('duplicateParameterName');

export function markDuplicateParameterNames(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  const seen = new Set<string>();
  for (const item of value) {
    if (item === null || typeof item !== 'object') continue;
    const name = (item as { name?: unknown }).name;
    if (typeof name !== 'string') continue;
    if (seen.has(name))
      Object.defineProperty(item, DUPLICATE_NAME, { value: true, enumerable: false });
    seen.add(name);
  }
  return value;
}

export function IsUniqueParameterName(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isUniqueParameterName',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) =>
          !(args?.object as Record<symbol, unknown> | undefined)?.[DUPLICATE_NAME],
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'name'} "${String(args?.value)}" is used by another parameter of this tool`,
      },
    },
    options,
  );
}

/** `enum` is allowed only beside `type: "string"`. */
export function IsOnlyOnStringParameter(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isOnlyOnStringParameter',
      validator: {
        validate: (_value: unknown, args?: ValidationArguments) =>
          (args?.object as { type?: unknown } | undefined)?.type === 'string',
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'enum'} is allowed only on string parameters`,
      },
    },
    options,
  );
}

const isDedupePath = (path: unknown): boolean =>
  typeof path === 'string' &&
  path.length <= DEDUPE_KEY_PATH_MAX_LENGTH &&
  DEDUPE_KEY_PATH_PATTERN.test(path);

/**
 * `dedupe_key`: 1-8 distinct dotted paths into the arguments, and only on a tool whose calls have
 * a side effect (`side_effect` `idempotent` or `irreversible`; `none` is the default).
 */
export function IsDedupeKey(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isDedupeKey',
      validator: {
        validate: (value: unknown, args?: ValidationArguments) =>
          dedupeKeyProblem(value, (args?.object as { side_effect?: unknown })?.side_effect) ===
          null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'dedupe_key'} ${dedupeKeyProblem(
            args?.value,
            (args?.object as { side_effect?: unknown })?.side_effect,
          )}`,
      },
    },
    options,
  );
}

function dedupeKeyProblem(value: unknown, sideEffect: unknown): string | null {
  if (sideEffect !== 'idempotent' && sideEffect !== 'irreversible')
    return 'is only allowed with side_effect "idempotent" or "irreversible"';
  if (!Array.isArray(value) || value.length < 1 || value.length > MAX_DEDUPE_KEY_PATHS)
    return `must be an array of 1-${MAX_DEDUPE_KEY_PATHS} argument paths`;
  const bad = value.findIndex((path) => !isDedupePath(path));
  if (bad !== -1)
    return `[${bad}] must be a dotted path of identifiers (such as "slot" or "customer.phone"), at most ${DEDUPE_KEY_PATH_MAX_LENGTH} characters`;
  if (new Set(value).size !== value.length) return 'must not name a path twice';
  return null;
}
