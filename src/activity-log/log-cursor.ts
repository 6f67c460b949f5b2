/**
 * Position after which the next `GET /logs` page starts: the last entry of a page, by its sort key
 * `(timestamp, id)`. Opaque to clients (base64url of `<epoch ms>.<id>`), so its form can change.
 */
export interface LogCursor {
  timestamp: Date;
  id: string;
}

const CURSOR_TEXT = /^(\d{1,15})\.(\d{1,20})$/;

export function encodeLogCursor(cursor: LogCursor): string {
  return Buffer.from(`${cursor.timestamp.getTime()}.${cursor.id}`, 'utf8').toString('base64url');
}

/** The cursor `value` holds, or null when it is not one this service wrote. */
export function decodeLogCursor(value: unknown): LogCursor | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 64) return null;
  if (!/^[A-Za-z0-9_-]+$/.test(value)) return null;
  const match = CURSOR_TEXT.exec(Buffer.from(value, 'base64url').toString('utf8'));
  if (!match) return null;
  const timestamp = new Date(Number(match[1]));
  if (Number.isNaN(timestamp.getTime())) return null;
  return { timestamp, id: BigInt(match[2]).toString() };
}
