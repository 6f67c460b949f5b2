/** A stored timestamp (a Date, or the text SQLite hands back) as UTC ISO 8601 with `Z`. */
export const toIso = (value: Date | string): string => new Date(value).toISOString();

/**
 * Calendar date, optionally followed by a time (seconds and fraction optional) and a zone.
 * Week and ordinal dates, which ISO 8601 also allows, are not accepted: nobody filters logs with them.
 */
const ISO_TIMESTAMP =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * Parses an ISO 8601 timestamp into a Date, or returns null when it is not one or names a date
 * that does not exist (`2024-02-30`). A timestamp without a zone is read as UTC, like the log's
 * own timestamps, so the result never depends on the server's time zone.
 */
export function parseIsoTimestamp(value: string): Date | null {
  const m = ISO_TIMESTAMP.exec(value);
  if (!m) return null;
  const [, y, mo, d, h = '00', mi = '00', s = '00', frac = '', zone] = m;
  const ms = frac.padEnd(3, '0').slice(0, 3);
  const offset =
    !zone || zone.toUpperCase() === 'Z'
      ? 'Z'
      : zone.length === 5
        ? `${zone.slice(0, 3)}:${zone.slice(3)}`
        : zone;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}${offset}`);
  if (Number.isNaN(date.getTime())) return null;
  // Date rolls 2024-02-30 over to March: reject instead of silently moving the bound.
  const check = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
  if (check.getUTCMonth() !== Number(mo) - 1 || check.getUTCDate() !== Number(d)) return null;
  if (Number(h) > 23 || Number(mi) > 59 || Number(s) > 59) return null;
  return date;
}
