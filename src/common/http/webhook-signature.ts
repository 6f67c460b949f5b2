import { createHmac, randomBytes } from 'node:crypto';

/** Prefix of a Standard Webhooks signing secret; the rest is the base64 key. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/**
 * Standard Webhooks signature (https://www.standardwebhooks.com): `v1,` + base64 HMAC-SHA256 of
 * `{id}.{timestamp}.{body}`, keyed by the base64-decoded part of `whsec_<base64>`. `body` must
 * be the exact bytes sent, so callers serialize once and sign that string.
 */
export function signStandardWebhook(
  secret: string,
  id: string,
  timestampSeconds: number,
  body: string,
): string {
  const encoded = secret.startsWith(WEBHOOK_SECRET_PREFIX)
    ? secret.slice(WEBHOOK_SECRET_PREFIX.length)
    : secret;
  const key = Buffer.from(encoded, 'base64');
  const mac = createHmac('sha256', key)
    .update(`${id}.${timestampSeconds}.${body}`, 'utf8')
    .digest('base64');
  return `v1,${mac}`;
}

/** A fresh message id, stable across retries only if the caller passes it again. */
export function newWebhookId(): string {
  return `msg_${randomBytes(18).toString('base64url')}`;
}

/** The three Standard Webhooks headers for one delivery; one `v1,...` per secret (rotation). */
export function standardWebhookHeaders(
  secrets: readonly string[],
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  return {
    'webhook-id': id,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': secrets
      .map((s) => signStandardWebhook(s, id, timestampSeconds, body))
      .join(' '),
  };
}
