import * as http from 'node:http';
import * as https from 'node:https';
import { performance } from 'node:perf_hooks';
import { HttpService } from '@nestjs/axios';
import axios, { AxiosError, type AxiosRequestConfig, type AxiosResponse } from 'axios';
import { LRUCache } from 'lru-cache';
import { BLOCKED_ADDRESS_CODE, FilteringHttpAgent, FilteringHttpsAgent } from './filtering-agent';
import {
  DEFAULT_MAX_RESPONSE_BYTES,
  type JsonParse,
  type OutboundHttpFailure,
  type OutboundHttpOptions,
  type OutboundHttpResult,
  type OutboundRequest,
} from './outbound-http.types';
import { nodeHttpAdapter } from './node-http-adapter';
import { checkPublicUrl } from './url-guard';
import { newWebhookId, standardWebhookHeaders } from './webhook-signature';

/**
 * The one client for customer endpoints (inbound-context webhooks, tool webhooks, end-call
 * webhooks). Never throws for anything the network or the customer does: every outcome is an
 * `OutboundHttpResult`, so callers log and branch without try/catch.
 *
 * - one deadline (AbortController) for the whole exchange, so a server that trickles bytes is
 *   cut at `timeoutMs`, not kept alive by each new byte as a socket-idle timeout would;
 * - redirects are not followed (a 3xx is an ordinary non-2xx response);
 * - the body is read as bytes with a cap, then decoded and JSON-parsed here;
 * - the request goes through axios with `nodeHttpAdapter` (node-http-adapter.ts), which does what
 *   axios's own Node adapter does for this kind of call, for less CPU per request;
 * - the SSRF guard runs before the request (URL literal, DNS) and again when the socket connects
 *   (`FilteringHttpAgent` on the address actually dialled; request-filtering-agent is ESM-only,
 *   which CommonJS Jest cannot load, so the same check lives in filtering-agent.ts), unless private networks are allowed.
 *   A URL that passed the check before the request is not checked again for `PREFLIGHT_MEMO_MS`:
 *   its DNS lookup would delay every call to it, and the check at connect time, on the address
 *   actually dialled, still holds for every new connection (a name that now resolves inside is
 *   refused there).
 */
/** How long a URL that passed the check before the request is not checked (looked up) again. */
export const PREFLIGHT_MEMO_MS = 30_000;

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
    const agentOptions = { keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 64 };
    if (options.allowPrivateNetworks) {
      this.httpAgent = new http.Agent(agentOptions);
      this.httpsAgent = new https.Agent(agentOptions);
    } else {
      this.httpAgent = new FilteringHttpAgent(agentOptions);
      this.httpsAgent = new FilteringHttpsAgent(agentOptions);
    }
    this.defaultMaxBytes = options.defaultMaxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  get allowPrivateNetworks(): boolean {
    return this.options.allowPrivateNetworks;
  }

  async postJson(request: OutboundRequest): Promise<OutboundHttpResult> {
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
      const headers = this.buildHeaders(request, body);
      const response: AxiosResponse<ResponseBytes> = await this.httpService.axiosRef.request(
        outboundRequestConfig({
          url: request.url,
          body,
          headers,
          signal: controller.signal,
          maxBytes: request.maxResponseBytes ?? this.defaultMaxBytes,
          httpAgent: this.httpAgent,
          httpsAgent: this.httpsAgent,
        }),
      );
      const latencyMs = elapsed();
      const text = bodyText(response.data);
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

  private buildHeaders(request: OutboundRequest, body: string): Record<string, string> {
    const headers: Record<string, string> = {};
    let hasUserAgent = false;
    for (const [name, value] of Object.entries(request.headers ?? {})) {
      const lower = name.toLowerCase();
      // The body is always JSON and its length is computed here; signature and trace headers are ours.
      if (
        lower === 'content-type' ||
        lower === 'content-length' ||
        lower.startsWith('webhook-') ||
        (lower === 'traceparent' && request.traceparent !== undefined)
      )
        continue;
      if (lower === 'user-agent') hasUserAgent = true;
      headers[name] = value;
    }
    headers['Content-Type'] = 'application/json';
    if (request.traceparent !== undefined) headers['traceparent'] = request.traceparent;
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

/** One outbound call as `outboundRequestConfig` sends it. */
export interface OutboundCall {
  url: string;
  /** The JSON body, already serialised (and signed). */
  body: string;
  headers: Record<string, string>;
  signal: AbortSignal;
  /** The response body's cap, in bytes. */
  maxBytes: number;
  httpAgent: http.Agent;
  httpsAgent: https.Agent;
}

/**
 * The axios request of an outbound call: a POST of bytes already serialised, no redirect followed,
 * no proxy, the answer read whole as bytes under the cap, every status a response, through
 * `nodeHttpAdapter`. (bench/outbound-bench.ts sends this same config through either adapter.)
 */
export function outboundRequestConfig(call: OutboundCall): AxiosRequestConfig<string> {
  return {
    method: 'POST',
    url: call.url,
    data: call.body,
    headers: call.headers,
    signal: call.signal,
    maxRedirects: 0,
    maxContentLength: call.maxBytes,
    maxBodyLength: Infinity,
    responseType: 'arraybuffer',
    transformRequest: [(data: unknown) => data],
    transformResponse: [(data: unknown) => data],
    validateStatus: () => true,
    proxy: false,
    httpAgent: call.httpAgent,
    httpsAgent: call.httpsAgent,
    adapter: nodeHttpAdapter,
  };
}

function failure(
  kind: OutboundHttpFailure['kind'],
  message: string,
  latencyMs: number,
  code?: string,
): OutboundHttpFailure {
  return code ? { kind, message, code, latencyMs } : { kind, message, latencyMs };
}

/** A response body read as bytes: a Buffer from `nodeHttpAdapter`, an ArrayBuffer from other adapters. */
type ResponseBytes = ArrayBuffer | Buffer;

function bodyText(data: ResponseBytes | undefined): string {
  if (data === undefined) return '';
  return (Buffer.isBuffer(data) ? data : Buffer.from(data)).toString('utf8');
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

function classifyError(
  error: unknown,
  timedOut: boolean,
  timeoutMs: number,
  latencyMs: number,
): OutboundHttpFailure {
  if (timedOut) return failure('timeout', `no complete response within ${timeoutMs} ms`, latencyMs);
  const messages: string[] = [];
  let code: string | undefined;
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    messages.push(current.message);
    const c = (current as { code?: unknown }).code;
    if (typeof c === 'string' && !code && c !== AxiosError.ERR_BAD_RESPONSE) code = c;
    current = (current as { cause?: unknown }).cause;
  }
  const all = messages.join(' | ');
  if (
    code === BLOCKED_ADDRESS_CODE ||
    all.includes('private, loopback, link-local or metadata address')
  ) {
    return failure(
      'blocked',
      'connection refused by the SSRF guard: the address is private, loopback, link-local or metadata',
      latencyMs,
    );
  }
  if (/maxContentLength size of \d+ exceeded/.test(all)) {
    const limit = /maxContentLength size of (\d+)/.exec(all)?.[1];
    return failure('too_large', `response body larger than ${limit} bytes`, latencyMs);
  }
  if (code === 'ECONNABORTED' || code === 'ETIMEDOUT') {
    return failure('timeout', `no complete response within ${timeoutMs} ms`, latencyMs, code);
  }
  const first = messages[0] ?? 'request failed';
  return failure('network', first, latencyMs, code);
}
