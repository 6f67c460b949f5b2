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
 * refuses would be lost; SQLite would store the lone surrogate and give it back. Returns a copy;
 * values that are neither text, arrays nor plain objects are kept as they are.
 */
export function storableJson<T>(value: T, depth = 0): T {
  if (typeof value === 'string') return value.toWellFormed() as T;
  if (value === null || typeof value !== 'object') return value;
  const isArray = Array.isArray(value);
  if (
    !isArray &&
    Object.getPrototypeOf(value) !== Object.prototype &&
    Object.getPrototypeOf(value) !== null
  )
    return value;
  if (depth >= LOG_DATA_MAX_DEPTH) return TOO_DEEP_MARKER as T;
  if (isArray) return value.map((item: unknown) => storableJson(item, depth + 1)) as T;
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
