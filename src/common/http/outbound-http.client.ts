import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { HttpService } from '@nestjs/axios';
import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { LRUCache } from 'lru-cache';
import { endClientSpan, startClientSpan } from '../../telemetry/spans';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type JsonParse,
  type OutboundHttpFailure,
  type OutboundHttpOptions,
  type OutboundHttpResult,
  type OutboundRequest,
} from './outbound-http.types';
import { statusCodeOf } from './outbound-outcome';
import { clientSpanAttributes, errorClassOf } from './outbound-span';
import { BLOCKED_ADDRESS_CODE, checkPublicUrl, publicOnlyLookup } from './url-guard';
import { newWebhookId, standardWebhookHeaders } from './webhook-signature';

/**
 * The one client for customer endpoints (inbound-context webhooks, tool webhooks, end-call
 * webhooks). Never throws for anything the network or the customer does: every outcome is an
 * `OutboundHttpResult`, so callers log and branch without try/catch.
 *
 * - one deadline (AbortController) for the whole exchange, so a server that trickles bytes is
 *   cut at `timeoutMs`, not kept alive by each new byte as a socket-idle timeout would;
 * - axios's own Node adapter (`adapter: 'http'`); `maxRedirects: 0` keeps it on Node's
 *   transport and a 3xx is an ordinary non-2xx response; the body is read as bytes (decoded) with
 *   `maxContentLength` as its cap, then decoded as text and JSON-parsed here;
 * - the SSRF guard runs before the request (URL literal, DNS) and again when the socket connects:
 *   unless private networks are allowed, both agents take `publicOnlyLookup`, so the address a name
 *   resolves to at connect time is judged (DNS rebinding), and an IP literal, which needs no
 *   lookup, was judged by the check before the request.
 *   A URL that passed the check before the request is not checked again for `PREFLIGHT_MEMO_MS`:
 *   its DNS lookup would delay every call to it, and the check at connect time, on the address
 *   actually dialled, still holds for every new connection (a name that now resolves inside is
 *   refused there);
 * - a failure is classified by its axios/Node error code (`classifyError`), never by its message.
 */
export const PREFLIGHT_MEMO_MS = 30_000;

/**
 * Idle keep-alive sockets an agent keeps per host: more than the busiest queue runs at once (the
 * lookup queue's 200), so every socket of a burst is reused by the next one instead of being
 * closed when its answer is in and dialled again.
 */
export const FREE_SOCKETS_KEPT = 256;

export class OutboundHttpClient {
  private readonly httpAgent: http.Agent;
  private readonly httpsAgent: https.Agent;
  private readonly defaultMaxBytes: number;
  /** URLs that passed the check before the request lately. */
  private readonly preflighted = new LRUCache<string, true>({
    max: 10_000,
    ttl: PREFLIGHT_MEMO_MS,
  });

  constructor(
    private readonly options: OutboundHttpOptions,
    private readonly httpService: HttpService = new HttpService(axios.create()),
  ) {
    const agentOptions = {
      keepAlive: true,
      keepAliveMsecs: 1000,
      maxFreeSockets: FREE_SOCKETS_KEPT,
      ...(options.allowPrivateNetworks ? {} : { lookup: publicOnlyLookup }),
    };
    this.httpAgent = new http.Agent(agentOptions);
    this.httpsAgent = new https.Agent(agentOptions);
    this.defaultMaxBytes = options.defaultMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  get allowPrivateNetworks(): boolean {
    return this.options.allowPrivateNetworks;
  }

  /**
   * Sends the request. With a `traceparent` it is a client span of that trace (exported when
   * tracing is on), and the `traceparent` header it carries names that span.
   */
  async postJson(request: OutboundRequest): Promise<OutboundHttpResult> {
    if (request.traceparent === undefined) return this.send(request);
    const { span, traceparent } = startClientSpan(
      request.traceparent,
      clientSpanAttributes(request.url),
    );
    const result = await this.send(request, traceparent);
    endClientSpan(span, statusCodeOf(result), () => (request.errorClassOf ?? errorClassOf)(result));
    return result;
  }

  private async send(request: OutboundRequest, traceparent?: string): Promise<OutboundHttpResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(
      () => {
        timedOut = true;
        controller.abort();
      },
      Math.max(1, request.timeoutMs),
    );
    try {
      const problem = await this.preflight(request);
      if (timedOut)
        return failure('timeout', `no complete response within ${request.timeoutMs} ms`, elapsed());
      if (problem) return failure('blocked', `URL ${problem}`, elapsed());

      const body = JSON.stringify(request.body ?? null);
      const headers = this.buildHeaders(request, body, traceparent);
      const response: AxiosResponse<Buffer> = await this.httpService.axiosRef.request({
        ...REQUEST_DEFAULTS,
        url: request.url,
        data: body,
        headers,
        signal: controller.signal,
        maxContentLength: request.maxResponseBytes ?? this.defaultMaxBytes,
        httpAgent: this.httpAgent,
        httpsAgent: this.httpsAgent,
      });
      const latencyMs = elapsed();
      const text = Buffer.isBuffer(response.data) ? response.data.toString('utf8') : '';
      const contentType = headerValue(response.headers['content-type']);
      return {
        kind: 'response',
        status: response.status,
        ok: response.status >= 200 && response.status < 300,
        contentType,
        text,
        json: parseJson(text),
        latencyMs,
      };
    } catch (error) {
      return classifyError(error, timedOut, request.timeoutMs, elapsed());
    } finally {
      clearTimeout(timer);
    }
  }

  /** The URL's problem (blocked before the request), or null; a URL that passed lately is not looked up again. */
  private async preflight(request: OutboundRequest): Promise<string | null> {
    if (this.preflighted.has(request.url)) return null;
    const problem = await checkPublicUrl(request.url, {
      allowPrivateNetworks: this.options.allowPrivateNetworks,
      resolveTimeoutMs: request.timeoutMs,
      resolve: this.options.preflightResolve,
    });
    if (problem === null) this.preflighted.set(request.url, true);
    return problem;
  }

  private buildHeaders(
    request: OutboundRequest,
    body: string,
    traceparent: string | undefined,
  ): Record<string, string> {
    const headers: Record<string, string> = {};
    let hasUserAgent = false;
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase();
      // The body is always JSON and its length is computed here; signature and trace headers are ours.
      if (
        lower === 'content-type' ||
        lower === 'content-length' ||
        lower.startsWith('webhook-') ||
        (lower === 'traceparent' && traceparent !== undefined)
      )
        continue;
      if (lower === 'user-agent') hasUserAgent = true;
      headers[name] = value;
    }
    headers['Content-Type'] = 'application/json';
    if (traceparent !== undefined) headers['traceparent'] = traceparent;
    headers['Accept'] ??= 'application/json';
    if (!hasUserAgent)
      headers['User-Agent'] = this.options.userAgent ?? 'voice-assistant-config-service';
    const secrets = request.signingSecrets ?? [];
    if (secrets.length > 0) {
      const id = request.webhookId ?? newWebhookId();
      Object.assign(
        headers,
        standardWebhookHeaders(secrets, id, Math.floor(Date.now() / 1000), body),
      );
    }
    return headers;
  }

  /** Closes pooled keep-alive sockets (app shutdown, tests). */
  destroy(): void {
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }
}

/**
 * What every outbound request shares: a POST of bytes already serialised (no transform), no
 * redirect followed, no proxy (whatever HTTP_PROXY says), the answer read whole as bytes, every
 * status a response. The request body is the service's own, so only the answer has a cap.
 */
const REQUEST_DEFAULTS: AxiosRequestConfig<string> = {
  method: 'POST',
  adapter: 'http',
  maxRedirects: 0,
  maxBodyLength: Infinity,
  responseType: 'arraybuffer',
  transformRequest: [(data: unknown) => data],
  transformResponse: [(data: unknown) => data],
  validateStatus: () => true,
  proxy: false,
};

function failure(
  kind: OutboundHttpFailure['kind'],
  message: string,
  latencyMs: number,
  code?: string,
): OutboundHttpFailure {
  return code ? { kind, message, code, latencyMs } : { kind, message, latencyMs };
}

function headerValue(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return null;
}

export function parseJson(text: string): JsonParse {
  if (text.trim() === '') return { ok: false, error: 'empty body' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : 'invalid JSON' };
  }
}

/** The first string `code` on the error or its causes (axios copies Node's code onto its own error). */
function errorCode(error: unknown): string | undefined {
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A failed request by its error code. The body cap is the one `ERR_BAD_RESPONSE` axios's Node
 * adapter raises without a response (a body cut short or one that does not decode comes with the
 * response it belongs to); the connect-time guard's refusal is `BLOCKED_ADDRESS_CODE`.
 */
export function classifyError(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
  latencyMs: number,
): OutboundHttpFailure {
  const late = `no complete response within ${timeoutMs} ms`;
  if (timedOut) return failure('timeout', late, latencyMs);
  const code = errorCode(error);
  switch (code) {
    case BLOCKED_ADDRESS_CODE:
      return failure(
        'blocked',
        'connection refused by the SSRF guard: the address is private, loopback, link-local or metadata',
        latencyMs,
      );
    case AxiosError.ECONNABORTED:
    case AxiosError.ETIMEDOUT:
      return failure('timeout', late, latencyMs, code);
    case AxiosError.ERR_BAD_RESPONSE:
      if (error instanceof AxiosError && error.response === undefined)
        return failure(
          'too_large',
          `response body larger than ${error.config?.maxContentLength} bytes`,
          latencyMs,
        );
      return failure('network', 'the connection closed before the body was complete', latencyMs);
  }
  const message = error instanceof Error ? error.message : 'request failed';
  return failure('network', message, latencyMs, code);
}
