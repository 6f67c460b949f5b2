import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake customer endpoint answers for one request. */
export interface CustomerResponse {
  /** Default 200. */
  status?: number;
  headers?: Record<string, string>;
  /** A string or bytes are sent as they are (set `headers` for the content type); anything else as JSON. */
  body?: unknown;
  /** Wait this long before sending anything (headers included). */
  delayMs?: number;
  /**
   * Slow-loris: send the headers at once, then `chunk` every `intervalMs`, `count` times, then
   * end. The response never completes quickly even though bytes keep arriving.
   */
  trickle?: { chunk: string; intervalMs: number; count: number };
  /** Close the socket without answering. */
  hangUp?: boolean;
}

export type CustomerResponder = CustomerResponse | ((request: RecordedRequest) => CustomerResponse);

export interface RecordedRequest {
  method: string;
  /** Path with query string, as received. */
  path: string;
  /** Lower-cased names, as Node gives them. */
  headers: IncomingHttpHeaders;
  rawBody: string;
  /** `JSON.parse(rawBody)`, or undefined when the body is not JSON. */
  json: unknown;
  receivedAt: number;
}

/**
 * A real local HTTP server standing in for a customer's webhook endpoint. Each test programs the
 * answer of its own path (`respond('/ok', {...})`), so tests in one file can share one server;
 * every request is recorded with its raw body and parsed JSON.
 */
export class CustomerServer {
  readonly requests: RecordedRequest[] = [];
  private readonly routes = new Map<string, CustomerResponder>();
  private fallback: CustomerResponder = { status: 200, body: { ok: true } };
  private readonly timers = new Set<NodeJS.Timeout>();

  private constructor(
    private readonly server: Server,
    readonly baseUrl: string,
  ) {}

  /** Listens on 127.0.0.1 on a free port. */
  static async start(): Promise<CustomerServer> {
    // The handler needs the instance, which needs the listening server's port.
    const ref: { instance?: CustomerServer } = {};
    const server = createServer((req, res) => {
      void ref.instance?.handle(req, res);
    });
    server.keepAliveTimeout = 5000;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    ref.instance = new CustomerServer(server, `http://127.0.0.1:${port}`);
    return ref.instance;
  }

  /** Absolute URL of `path` on this server. */
  url(path = '/'): string {
    return `${this.baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /** Programs the answer for requests whose path (without query) is `path`. */
  respond(path: string, responder: CustomerResponder): this {
    this.routes.set(path, responder);
    return this;
  }

  /** The answer for paths that were not programmed (default 200 `{"ok":true}`). */
  respondByDefault(responder: CustomerResponder): this {
    this.fallback = responder;
    return this;
  }

  requestsTo(path: string): RecordedRequest[] {
    return this.requests.filter((r) => r.path.split('?')[0] === path);
  }

  /** Resolves once `count` requests reached `path`, or rejects after `timeoutMs`. */
  async waitForRequests(path: string, count: number, timeoutMs = 5000): Promise<RecordedRequest[]> {
    const deadline = Date.now() + timeoutMs;
    while (this.requestsTo(path).length < count) {
      if (Date.now() > deadline) {
        throw new Error(
          `expected ${count} request(s) to ${path}, got ${this.requestsTo(path).length}`,
        );
      }
      await new Promise((r) => setTimeout(r, 10));
    }
    return this.requestsTo(path);
  }

  reset(): void {
    this.requests.length = 0;
    this.routes.clear();
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString('utf8');
    let json: unknown;
    try {
      json = rawBody ? (JSON.parse(rawBody) as unknown) : undefined;
    } catch {
      json = undefined;
    }
    const recorded: RecordedRequest = {
      method: req.method ?? '',
      path: req.url ?? '/',
      headers: req.headers,
      rawBody,
      json,
      receivedAt: Date.now(),
    };
    this.requests.push(recorded);
    const responder = this.routes.get(recorded.path.split('?')[0]) ?? this.fallback;
    const response = typeof responder === 'function' ? responder(recorded) : responder;
    if (response.delayMs) await this.sleep(response.delayMs);
    if (res.destroyed) return;
    if (response.hangUp) {
      req.socket.destroy();
      return;
    }
    const isText = typeof response.body === 'string' || Buffer.isBuffer(response.body);
    const payload: string | Buffer =
      response.body === undefined
        ? ''
        : isText
          ? (response.body as string | Buffer)
          : JSON.stringify(response.body);
    const headers: Record<string, string> = {
      ...(isText || response.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...response.headers,
    };
    if (response.trickle) {
      res.writeHead(response.status ?? 200, headers);
      res.flushHeaders();
      for (let i = 0; i < response.trickle.count && !res.destroyed; i++) {
        res.write(response.trickle.chunk);
        await this.sleep(response.trickle.intervalMs);
      }
      if (!res.destroyed) res.end(payload);
      return;
    }
    res.writeHead(response.status ?? 200, {
      ...headers,
      'content-length': String(Buffer.byteLength(payload)),
    });
    res.end(payload);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(() => {
        this.timers.delete(t);
        resolve();
      }, ms);
      this.timers.add(t);
    });
  }
}

/** Starts a customer server; pair with `await server.close()` in afterAll. */
export function startCustomerServer(): Promise<CustomerServer> {
  return CustomerServer.start();
}
