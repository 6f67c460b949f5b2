import type { ErrorClass } from '../../contracts/error-class';

export interface OutboundRequest {
  url: string;
  /** Configured headers (strategy, tool). `Content-Type: application/json` is always sent. */
  headers?: Record<string, string>;
  /** Serialized once with JSON.stringify; the signature covers exactly those bytes. */
  body: unknown;
  /** Total deadline for connect + TLS + request + full response body. */
  timeoutMs: number;
  /** Response body cap in bytes (default from the client, 1 MB). */
  maxResponseBytes?: number;
  /** Standard Webhooks secrets (`whsec_...`); when non-empty the request is signed with each. */
  signingSecrets?: readonly string[];
  /** `webhook-id` to sign with (pass the same one on retries); a new `msg_...` otherwise. */
  webhookId?: string;
  /**
   * W3C `traceparent` of the work this request belongs to (see telemetry/trace-context.ts). The
   * request is a span of its own under it, and the `traceparent` header it carries names that
   * span; it replaces a configured header of the same name: a customer's static value would break
   * the trace it is meant to continue.
   */
  traceparent?: string;
  /**
   * How the caller's entry classifies this outcome, for the client span's `error.type` (default:
   * a 2xx succeeds, anything else by its failure kind). A caller that refuses some 2xx answers (a
   * lookup whose body has no usable `context`) passes its own judgement, so span and entry agree.
   */
  errorClassOf?: (result: OutboundHttpResult) => ErrorClass | null;
}

export type JsonParse = { ok: true; value: unknown } | { ok: false; error: string };

/** The customer answered: any status, redirects included (they are never followed). */
export interface OutboundHttpResponse {
  kind: 'response';
  status: number;
  /** 2xx */
  ok: boolean;
  contentType: string | null;
  /** Body decoded as UTF-8. */
  text: string;
  /** JSON.parse of `text`, whatever the content type claims. */
  json: JsonParse;
  latencyMs: number;
}

export interface OutboundHttpFailure {
  /**
   * `timeout`: the total deadline passed (connect, TLS or a slow body);
   * `network`: DNS failure, refused, reset, TLS error, invalid header value;
   * `blocked`: the address is not allowed (SSRF guard, at save or connect time);
   * `too_large`: the response body passed the size cap.
   */
  kind: 'timeout' | 'network' | 'blocked' | 'too_large';
  /** Human-readable, safe to log: never contains header values. */
  message: string;
  /** Node/axios error code when there is one (ECONNREFUSED, ENOTFOUND, ...). */
  code?: string;
  latencyMs: number;
}

export type OutboundHttpResult = OutboundHttpResponse | OutboundHttpFailure;

export interface OutboundHttpOptions {
  /** WEBHOOK_ALLOW_PRIVATE_NETWORKS: skip the SSRF guard (tests, local development). */
  allowPrivateNetworks: boolean;
  /** Response body cap when a request does not set one. */
  defaultMaxResponseBytes?: number;
  /** Sent as User-Agent unless the configured headers carry one. */
  userAgent?: string;
  /**
   * DNS used by the pre-request URL check (default: the system resolver). Tests use it to play a
   * DNS rebinding, where only the connect-time check on the dialled address can refuse.
   */
  preflightResolve?: (host: string) => Promise<string[]>;
}

export const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
