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
