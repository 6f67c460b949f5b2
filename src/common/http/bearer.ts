import { createHash, timingSafeEqual } from 'node:crypto';

/** `Authorization: Bearer <key>` → key, or null when absent or malformed. */
export function bearerToken(header: string | undefined): string | null {
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match ? match[1] : null;
}

const digest = (value: string) => createHash('sha256').update(value).digest();

/** Whether `token` is the operator key (`ADMIN_API_KEY`), compared in constant time. */
export function isOperatorKey(token: string | null, adminKey: string): boolean {
  return token !== null && timingSafeEqual(digest(token), digest(adminKey));
}
