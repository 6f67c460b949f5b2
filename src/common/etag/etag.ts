import { createHash } from 'node:crypto';
import { currentRequest } from '../pipeline/request-context';
import { AppErrorCode, AppException } from '../errors/app.exception';

/**
 * The strong entity tag of what a details route shows: a hash of that body. It changes exactly
 * when what details shows changes (an update, an attach or detach, a rotated default...), and a
 * published version's details (`?version=N`) have their own.
 */
export function etagOf(view: unknown): string {
  const digest = createHash('sha256')
    .update(JSON.stringify(view ?? null))
    .digest('base64url');
  return `"${digest.slice(0, 32)}"`;
}

/**
 * The entity tags a conditional header lists; weak tags keep their `W/`. `*` ("any") only when it
 * is the whole header (RFC 9110: `"*" / #entity-tag`): a `*` anywhere else (`x*y`, `"a", *`) is no
 * tag, so it never makes a condition hold.
 */
export function parseEntityTags(header: string | string[] | undefined): string[] {
  if (header === undefined) return [];
  const text = Array.isArray(header) ? header.join(',') : header;
  if (text.trim() === '*') return ['*'];
  return text.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** `If-None-Match`: weak comparison (RFC 9110 13.1.2), so a `W/` tag matches its strong twin. */
export function noneMatchHits(header: string | string[] | undefined, etag: string): boolean {
  return parseEntityTags(header).some((tag) => tag === '*' || tag.replace(/^W\//, '') === etag);
}

/** `If-Match`: strong comparison (RFC 9110 13.1.1); a weak tag never matches. */
export function ifMatchHolds(header: string | string[] | undefined, etag: string): boolean {
  const tags = parseEntityTags(header);
  return tags.some((tag) => tag === '*' || tag === etag);
}

/**
 * Checks the request's `If-Match` against the record as it is now: call it inside the write's
 * transaction, after the row is locked, with the record's details view. Without the header (or
 * outside a request) every write passes; with a stale tag it is a 412 and nothing is written.
 */
export function assertIfMatch(currentView: unknown): void {
  const header = currentRequest()?.headers['if-match'];
  if (header === undefined) return;
  if (!ifMatchHolds(header, etagOf(currentView))) {
    throw new AppException(
      AppErrorCode.PRECONDITION_FAILED,
      'If-Match does not match the current ETag: the record changed since it was read',
    );
  }
}
