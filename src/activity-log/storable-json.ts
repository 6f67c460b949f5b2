import type { ActivityLogInput } from './activity-log.service';
import type { LogRow } from './group-commit.types';

/**
 * Containers an entry's `request_data` / `response_data` may nest, the column's own object
 * included. MariaDB refuses JSON nested 32 levels or more; deeper parts are replaced by a marker.
 */
export const LOG_DATA_MAX_DEPTH = 24;

/** Stands in for a part of the data nested deeper than `LOG_DATA_MAX_DEPTH`. */
export const TOO_DEEP_MARKER = `[nested deeper than ${LOG_DATA_MAX_DEPTH} levels]`;

/**
 * `value` in a form every database stores: text that is not well-formed Unicode (a lone UTF-16
 * surrogate, from a customer's response, a tool's arguments or a cut in the middle of a pair) has
 * each bad unit replaced by U+FFFD, keys included, and parts nested deeper than
 * `LOG_DATA_MAX_DEPTH` containers become `TOO_DEEP_MARKER`. MySQL refuses both, and an entry it
 * refuses would be lost; SQLite would store the lone surrogate and give it back. Values that are
 * neither text, arrays nor plain objects are kept as they are. A value with nothing to replace
 * (nearly every entry) is returned itself, not copied; otherwise a copy is returned.
 */
export function storableJson<T>(value: T, depth = 0): T {
  return isStorable(value, depth) ? value : storableCopy(value, depth);
}

/** Whether `value` has nothing `storableJson` would replace: read through, nothing allocated. */
function isStorable(value: unknown, depth: number): boolean {
  if (typeof value === 'string') return value.isWellFormed();
  if (!isContainer(value)) return true;
  if (depth >= LOG_DATA_MAX_DEPTH) return false;
  if (Array.isArray(value)) return value.every((item) => isStorable(item, depth + 1));
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (!key.isWellFormed() || !isStorable((value as Record<string, unknown>)[key], depth + 1))
      return false;
  }
  return true;
}

/** An array or a plain object (the containers JSON has). */
function isContainer(value: unknown): value is object {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

function storableCopy<T>(value: T, depth: number): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (!isContainer(value)) return value;
  if (depth >= LOG_DATA_MAX_DEPTH) return TOO_DEEP_MARKER as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item, depth + 1)) as T;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    // defineProperty: a `__proto__` key from parsed JSON stays an own key instead of a prototype.
    Object.defineProperty(out, key.toWellFormed(), {
      value: storableJson(item, depth + 1),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out as T;
}

/** The largest request body an entry keeps for a replay (a larger one is not kept). */
export const MAX_STORED_REQUEST_BODY_BYTES = 1024 * 1024;

/** The body as an entry keeps it: whole, or not at all when it is larger than the limit. */
function keptBody(body: string | null | undefined): string | null {
  if (body === null || body === undefined) return null;
  return Buffer.byteLength(body, 'utf8') <= MAX_STORED_REQUEST_BODY_BYTES ? body : null;
}

const MAX_MESSAGE = 1000;

/** The entry as it is stored. */
export function toRow(input: ActivityLogInput): LogRow {
  return {
    user_id: input.user_id,
    log_type: input.log_type,
    status: input.status,
    assistant_id: input.assistant_id,
    message: storableJson(
      input.message.length > MAX_MESSAGE
        ? `${input.message.slice(0, MAX_MESSAGE - 1)}…`
        : input.message,
    ),
    room_name: storableJson(input.room_name.slice(0, 255)),
    request_data: storableJson(input.request_data),
    response_data: storableJson(input.response_data),
    latency_ms: Math.max(0, Math.round(input.latency_ms)),
    timestamp: input.timestamp ?? new Date(),
    error_class: input.status === 'success' ? null : (input.error_class ?? 'internal'),
    trace_id: input.trace_id ?? null,
    request_body: keptBody(input.request_body),
    replay_of: input.replay_of ?? null,
    attempt_key: input.attempt_key ?? null,
  };
}
