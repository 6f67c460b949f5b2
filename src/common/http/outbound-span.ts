import type { Attributes } from '@opentelemetry/api';
import { classifyFailure, type ErrorClass } from '../../contracts/error-class';
import { redactUrl } from '../secrets/redaction';
import { describeOutboundOutcome } from './outbound-outcome';
import type { OutboundHttpResult } from './outbound-http.types';

/**
 * The attributes of an outbound request's client span: the method, the host and port, and the
 * URL masked as activity-log entries show it (no credentials, no secret query values). Header
 * values and the body are never attributes.
 */
export function clientSpanAttributes(url: string): Attributes {
  const attributes: Attributes = {
    'http.request.method': 'POST',
    'url.full': redactUrl(url) ?? '',
  };
  try {
    const parsed = new URL(url);
    attributes['server.address'] = parsed.hostname.replace(/^\[|\]$/g, '');
    attributes['server.port'] = Number(parsed.port) || (parsed.protocol === 'https:' ? 443 : 80);
  } catch {
    // An unparseable URL is refused before it is sent; its span names no server.
  }
  return attributes;
}

/** The error class an entry records for this result (null for a 2xx answer). */
export function errorClassOf(result: OutboundHttpResult): ErrorClass | null {
  const described = describeOutboundOutcome(result);
  return described.ok ? null : classifyFailure(described.kind, described.status_code);
}
