import * as http from 'node:http';
import * as https from 'node:https';
import { pipeline, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import {
  AxiosError,
  AxiosHeaders,
  CanceledError,
  type AxiosAdapter,
  type AxiosResponse,
  type InternalAxiosRequestConfig,
} from 'axios';

/** What the request says it can decode (as axios's own adapter says it). */
export const ACCEPT_ENCODING = 'gzip, compress, deflate, br';

/** Decoding that forgives a body cut short at the end, as axios's own adapter does. */
const ZLIB_OPTIONS: zlib.ZlibOptions = {
  flush: zlib.constants.Z_SYNC_FLUSH,
  finishFlush: zlib.constants.Z_SYNC_FLUSH,
};
const BROTLI_OPTIONS: zlib.BrotliOptions = {
  flush: zlib.constants.BROTLI_OPERATION_FLUSH,
  finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
};

/**
 * The outbound client's axios adapter: one request on Node's `http`/`https` with the config's
 * agent, for the way that client calls (a body already serialised, no redirects, no proxy, the
 * body read whole as bytes). It does what axios's own Node adapter does for such a call, with the
 * same errors, so callers read either alike:
 *
 * - `Content-Length` from the body's bytes, `Accept-Encoding` unless the headers name one, Basic
 *   auth from credentials in the URL;
 * - a `gzip`, `deflate` or `br` body is decoded, and `maxContentLength` counts decoded bytes
 *   (`AxiosError` "maxContentLength size of N exceeded", `ERR_BAD_RESPONSE`);
 * - `signal` aborts the exchange (`CanceledError`); a socket error is `AxiosError.from` it, its
 *   `code` kept; `validateStatus` settles the response.
 *
 * Why not axios's adapter: it is built for every use (redirects, proxies, progress events, streams,
 * form data), and on this path, taken by every webhook of every call, the outbound client spent
 * about a sixth more CPU per request with it (BENCHMARKS.md, "Fifth run"). Not done here: following
 * redirects, proxies, `timeout` (the client's deadline is its signal), a default User-Agent (the
 * client sets one), raw deflate without its zlib header (read as an error).
 */
export const nodeHttpAdapter: AxiosAdapter = (config) =>
  new Promise<AxiosResponse>((resolve, reject) => {
    const signal = config.signal as AbortSignal | undefined;
    if (signal?.aborted) {
      reject(new CanceledError(undefined, config));
      return;
    }
    let request: http.ClientRequest;
    let body: Buffer | undefined;
    try {
      ({ request, body } = openRequest(config));
    } catch (error) {
      reject(error instanceof AxiosError ? error : AxiosError.from(error, undefined, config));
      return;
    }
    let settled = false;
    const onAbort = () => {
      fail(new CanceledError(undefined, config, request));
      request.destroy();
    };
    const exchange: Exchange = {
      config,
      request,
      get settled() {
        return settled;
      },
      settle(outcome) {
        if (settled) return;
        settled = true;
        signal?.removeEventListener('abort', onAbort);
        outcome();
      },
      resolve: (response) => exchange.settle(() => resolve(response)),
      fail,
    };
    function fail(error: Error): void {
      exchange.settle(() => reject(error));
    }
    signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', (error) => fail(AxiosError.from(error, undefined, config, request)));
    request.on('response', (response) => readResponse(exchange, response));
    request.end(body);
  });

/** One request under way, and how it ends (once: the first outcome wins). */
interface Exchange {
  readonly config: InternalAxiosRequestConfig;
  readonly request: http.ClientRequest;
  readonly settled: boolean;
  settle(outcome: () => void): void;
  resolve(response: AxiosResponse): void;
  fail(error: Error): void;
}

/**
 * The request (its headers completed as axios's adapter completes them) and the body to end it
 * with; throws for a bad URL or body.
 */
function openRequest(config: InternalAxiosRequestConfig): {
  request: http.ClientRequest;
  body: Buffer | undefined;
} {
  const url = new URL(config.url ?? '');
  const secure = url.protocol === 'https:';
  if (!secure && url.protocol !== 'http:')
    throw new AxiosError(
      `Unsupported protocol ${url.protocol}`,
      AxiosError.ERR_BAD_REQUEST,
      config,
    );
  const body = requestBody(config.data);
  const headers = AxiosHeaders.from(config.headers);
  headers.set('Accept-Encoding', ACCEPT_ENCODING, false);
  if (body) headers.setContentLength(body.length, false);
  const agent: unknown = secure ? config.httpsAgent : config.httpAgent;
  const request = (secure ? https : http).request({
    protocol: url.protocol,
    hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port || undefined,
    path: url.pathname + url.search,
    method: (config.method ?? 'get').toUpperCase(),
    headers: headers.toJSON() as http.OutgoingHttpHeaders,
    agent: agent as http.Agent | undefined,
    auth: credentials(url),
  });
  return { request, body };
}

/** Reads the body whole (decoded, capped at `maxContentLength`), then settles on its status. */
function readResponse(exchange: Exchange, response: http.IncomingMessage): void {
  const { config, request } = exchange;
  const partial = {
    status: response.statusCode ?? 0,
    statusText: response.statusMessage ?? '',
    headers: response.headers as AxiosResponse['headers'],
    config,
    request,
  };
  const failWith = (error: Error) =>
    exchange.fail(
      AxiosError.from(error, undefined, config, request, { ...partial, data: undefined }),
    );
  const decoded = decode(response, request.method);
  const limit = config.maxContentLength ?? -1;
  const chunks: Buffer[] = [];
  let bytes = 0;
  decoded.on('data', (chunk: Buffer) => {
    if (exchange.settled) return;
    bytes += chunk.length;
    if (limit > -1 && bytes > limit) {
      exchange.fail(
        new AxiosError(
          `maxContentLength size of ${limit} exceeded`,
          AxiosError.ERR_BAD_RESPONSE,
          config,
          request,
        ),
      );
      request.destroy();
      return;
    }
    chunks.push(chunk);
  });
  decoded.on('error', failWith);
  // The connection closed before the body was complete.
  response.on('close', () => {
    if (!response.complete)
      exchange.fail(
        new AxiosError('stream has been aborted', AxiosError.ERR_BAD_RESPONSE, config, request),
      );
  });
  decoded.on('end', () => {
    const full: AxiosResponse = { ...partial, data: Buffer.concat(chunks, bytes) };
    if (!config.validateStatus || config.validateStatus(full.status)) exchange.resolve(full);
    else exchange.fail(statusError(full, config, request));
  });
}

/** The body as bytes: the outbound client sends it already serialised. */
function requestBody(data: unknown): Buffer | undefined {
  if (data === undefined || data === null) return undefined;
  if (typeof data === 'string') return Buffer.from(data, 'utf8');
  if (Buffer.isBuffer(data)) return data;
  if (data instanceof ArrayBuffer) return Buffer.from(data);
  throw new TypeError('the request body must be a string or bytes');
}

/** `user:password` from the URL (decoded), for Basic auth; undefined when it names none. */
function credentials(url: URL): string | undefined {
  if (!url.username && !url.password) return undefined;
  return `${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`;
}

/** The body as the server meant it: decoded when it names an encoding this adapter reads. */
function decode(response: http.IncomingMessage, method: string): Readable {
  const encoding = String(response.headers['content-encoding'] ?? '').toLowerCase();
  if (!encoding) return response;
  if (method === 'HEAD' || response.statusCode === 204) {
    // No body to decode: the header would only mislead.
    delete response.headers['content-encoding'];
    return response;
  }
  let decoder: zlib.Unzip | zlib.BrotliDecompress;
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
    case 'compress':
    case 'x-compress':
    case 'deflate':
      // zlib-wrapped deflate, as HTTP defines it (a raw deflate stream is read as an error).
      decoder = zlib.createUnzip(ZLIB_OPTIONS);
      break;
    case 'br':
      decoder = zlib.createBrotliDecompress(BROTLI_OPTIONS);
      break;
    default:
      return response;
  }
  delete response.headers['content-encoding'];
  // A failure of either stream destroys the decoder with it: the caller's 'error' listener sees it.
  return pipeline(response, decoder, () => undefined);
}

function statusError(
  response: AxiosResponse,
  config: InternalAxiosRequestConfig,
  request: http.ClientRequest,
): AxiosError {
  const code = response.status >= 500 ? AxiosError.ERR_BAD_RESPONSE : AxiosError.ERR_BAD_REQUEST;
  return new AxiosError(
    `Request failed with status code ${response.status}`,
    code,
    config,
    request,
    response,
  );
}
