import { lookup } from 'node:dns/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { gzipSync } from 'node:zlib';
import { CustomerServer } from '../../../test/utils/customer-server';
import { OutboundHttpClient } from './outbound-http.client';
import type {
  OutboundHttpFailure,
  OutboundHttpResponse,
  OutboundHttpResult,
} from './outbound-http.types';
import { signStandardWebhook } from './webhook-signature';

function asResponse(result: OutboundHttpResult): OutboundHttpResponse {
  if (result.kind !== 'response')
    throw new Error(`expected a response, got ${result.kind}: ${result.message}`);
  return result;
}
function asFailure(result: OutboundHttpResult): OutboundHttpFailure {
  if (result.kind === 'response') throw new Error(`expected a failure, got HTTP ${result.status}`);
  return result;
}

describe(OutboundHttpClient.name, () => {
  let server: CustomerServer;
  const client = new OutboundHttpClient({ allowPrivateNetworks: true });
  const strictClient = new OutboundHttpClient({ allowPrivateNetworks: false });

  beforeAll(async () => {
    server = await CustomerServer.start();
  });
  afterAll(async () => {
    client.destroy();
    strictClient.destroy();
    await server.close();
  });

  it('posts JSON with the configured headers and parses a JSON answer', async () => {
    server.respond('/ok', { status: 200, body: { context: { tier: 'gold' } } });
    const body = { caller_number: '+15550001', nested: { a: [1, 2] } };
    const result = asResponse(
      await client.postJson({
        url: server.url('/ok'),
        headers: { Authorization: 'Bearer t0k', 'X-Tenant': 'acme' },
        body,
        timeoutMs: 2000,
      }),
    );
    expect(result).toMatchObject({ status: 200, ok: true, contentType: 'application/json' });
    expect(result.json).toEqual({ ok: true, value: { context: { tier: 'gold' } } });
    expect(result.text).toBe('{"context":{"tier":"gold"}}');
    expect(result.latencyMs).toBeGreaterThanOrEqual(0);
    const [received] = server.requestsTo('/ok');
    expect(received.method).toBe('POST');
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers['authorization']).toBe('Bearer t0k');
    expect(received.headers['x-tenant']).toBe('acme');
    expect(received.rawBody).toBe(JSON.stringify(body));
    expect(received.headers['webhook-signature']).toBeUndefined();
  });

  it('never lets configured headers override the JSON content type', async () => {
    server.respond('/ct', { body: {} });
    await client.postJson({
      url: server.url('/ct'),
      headers: { 'content-type': 'text/plain' },
      body: {},
      timeoutMs: 2000,
    });
    expect(server.requestsTo('/ct')[0].headers['content-type']).toBe('application/json');
  });

  it("sends the request's traceparent, whatever a configured header of that name says", async () => {
    server.respond('/traced', { body: {} });
    const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
    await client.postJson({
      url: server.url('/traced'),
      headers: { TraceParent: '00-11111111111111111111111111111111-2222222222222222-01' },
      body: {},
      timeoutMs: 2000,
      traceparent,
    });
    const [received] = server.requestsTo('/traced');
    expect(received.headers['traceparent']).toBe(traceparent);
  });

  it('signs the exact bytes sent with every secret', async () => {
    server.respond('/signed', { body: {} });
    const secrets = [
      'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
      'whsec_' + Buffer.from('second').toString('base64'),
    ];
    await client.postJson({
      url: server.url('/signed'),
      body: { a: 1 },
      timeoutMs: 2000,
      signingSecrets: secrets,
      webhookId: 'msg_fixed',
    });
    const [received] = server.requestsTo('/signed');
    const ts = Number(received.headers['webhook-timestamp']);
    expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(5);
    expect(received.headers['webhook-id']).toBe('msg_fixed');
    expect(received.headers['webhook-signature']).toBe(
      secrets.map((s) => signStandardWebhook(s, 'msg_fixed', ts, received.rawBody)).join(' '),
    );
  });

  it('generates a msg_ id when none is given', async () => {
    server.respond('/signed-id', { body: {} });
    await client.postJson({
      url: server.url('/signed-id'),
      body: {},
      timeoutMs: 2000,
      signingSecrets: ['whsec_c2VjcmV0'],
    });
    expect(server.requestsTo('/signed-id')[0].headers['webhook-id']).toMatch(
      /^msg_[A-Za-z0-9_-]{20,}$/,
    );
  });

  it('returns a 500 as a response with ok false', async () => {
    server.respond('/500', { status: 500, body: { error: 'boom' } });
    const result = asResponse(
      await client.postJson({ url: server.url('/500'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({
      status: 500,
      ok: false,
      json: { ok: true, value: { error: 'boom' } },
    });
  });

  it('reports invalid JSON as a parse error with the raw text', async () => {
    server.respond('/bad-json', {
      status: 200,
      body: '{"context": ',
      headers: { 'content-type': 'application/json' },
    });
    const result = asResponse(
      await client.postJson({ url: server.url('/bad-json'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.ok).toBe(true);
    expect(result.text).toBe('{"context": ');
    expect(result.json.ok).toBe(false);
  });

  it('returns a text answer with its content type', async () => {
    server.respond('/text', {
      body: 'hello',
      headers: { 'content-type': 'text/plain; charset=utf-8' },
    });
    const result = asResponse(
      await client.postJson({ url: server.url('/text'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({
      status: 200,
      contentType: 'text/plain; charset=utf-8',
      text: 'hello',
    });
    expect(result.json.ok).toBe(false);
  });

  it('times out a server that answers too late', async () => {
    server.respond('/slow', { delayMs: 3000, body: {} });
    const started = Date.now();
    const result = asFailure(
      await client.postJson({ url: server.url('/slow'), body: {}, timeoutMs: 300 }),
    );
    expect(result.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(800);
    expect(result.latencyMs).toBeGreaterThanOrEqual(295);
  });

  it('cuts a slow-loris body at the deadline although bytes keep arriving', async () => {
    server.respond('/loris', {
      trickle: { chunk: ' ', intervalMs: 50, count: 100 },
      body: '{}',
      headers: { 'content-type': 'application/json' },
    });
    const started = Date.now();
    const result = asFailure(
      await client.postJson({ url: server.url('/loris'), body: {}, timeoutMs: 400 }),
    );
    expect(result.kind).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('refuses a body above the default 1 MB cap', async () => {
    server.respond('/big', {
      body: 'x'.repeat(1024 * 1024 + 10),
      headers: { 'content-type': 'text/plain' },
    });
    const result = asFailure(
      await client.postJson({ url: server.url('/big'), body: {}, timeoutMs: 3000 }),
    );
    expect(result.kind).toBe('too_large');
  });

  it('refuses a streamed body above a per-request cap', async () => {
    server.respond('/big-stream', {
      trickle: { chunk: 'y'.repeat(600), intervalMs: 1, count: 5 },
      body: '',
    });
    const result = asFailure(
      await client.postJson({
        url: server.url('/big-stream'),
        body: {},
        timeoutMs: 3000,
        maxResponseBytes: 1000,
      }),
    );
    expect(result.kind).toBe('too_large');
  });

  it('reads a gzip-compressed JSON answer, and caps it by its decoded size', async () => {
    const json = JSON.stringify({ context: { tier: 'gold' } });
    const compressed = { 'content-type': 'application/json', 'content-encoding': 'gzip' };
    server.respond('/gzip', { body: gzipSync(json), headers: compressed });
    const result = asResponse(
      await client.postJson({ url: server.url('/gzip'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.json).toEqual({ ok: true, value: { context: { tier: 'gold' } } });

    server.respond('/gzip-bomb', { body: gzipSync(Buffer.alloc(64 * 1024)), headers: compressed });
    const refused = asFailure(
      await client.postJson({
        url: server.url('/gzip-bomb'),
        body: {},
        timeoutMs: 2000,
        maxResponseBytes: 10_000,
      }),
    );
    expect(refused.kind).toBe('too_large');
  });

  it('does not follow redirects', async () => {
    server.respond('/redirect', {
      status: 302,
      headers: { location: server.url('/target') },
      body: '',
    });
    server.respond('/target', { body: { context: {} } });
    const result = asResponse(
      await client.postJson({ url: server.url('/redirect'), body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({ status: 302, ok: false });
    expect(server.requestsTo('/target')).toHaveLength(0);
  });

  it('reports a refused connection as a network error', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((r) => closed.close(() => r()));
    const result = asFailure(
      await client.postJson({ url: `http://127.0.0.1:${port}/`, body: {}, timeoutMs: 2000 }),
    );
    expect(result).toMatchObject({ kind: 'network', code: 'ECONNREFUSED' });
  });

  it('reports a dropped connection as a network error', async () => {
    server.respond('/hangup', { hangUp: true });
    const result = asFailure(
      await client.postJson({ url: server.url('/hangup'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.kind).toBe('network');
  });

  it('blocks private addresses when private networks are not allowed, without sending anything', async () => {
    server.respond('/private', { body: {} });
    const result = asFailure(
      await strictClient.postJson({ url: server.url('/private'), body: {}, timeoutMs: 2000 }),
    );
    expect(result.kind).toBe('blocked');
    expect(server.requestsTo('/private')).toHaveLength(0);
  });

  it('blocks at connect time when a name passed the preflight but dials a private address', async () => {
    // The machine's own host name resolves to a loopback/private address on most hosts; the
    // preflight is told it is public (as after a DNS rebinding), so only the agent can stop it.
    const name = hostname();
    const addresses = await lookup(name, { all: true }).catch(() => []);
    if (addresses.length === 0) return;
    const rebinding = new OutboundHttpClient({
      allowPrivateNetworks: false,
      preflightResolve: () => Promise.resolve(['93.184.216.34']),
    });
    const port = new URL(server.baseUrl).port;
    server.respond('/rebind', { body: {} });
    try {
      const result = await rebinding.postJson({
        url: `http://${name}:${port}/rebind`,
        body: {},
        timeoutMs: 2000,
      });
      expect(asFailure(result).kind).toBe('blocked');
      expect(server.requestsTo('/rebind')).toHaveLength(0);
    } finally {
      rebinding.destroy();
    }
  });

  it('looks a URL up once before its requests for a while, and a refused one again every time', async () => {
    const looked: string[] = [];
    const answers: Record<string, string[]> = {
      'ok.example': ['93.184.216.34'],
      'in.example': ['10.0.0.7'],
    };
    const strict = new OutboundHttpClient({
      allowPrivateNetworks: false,
      preflightResolve: (host) => {
        looked.push(host);
        return Promise.resolve(answers[host] ?? []);
      },
    });
    try {
      // 'ok.example' passes the check; the request itself then fails to connect (no such host).
      for (let i = 0; i < 3; i++)
        await strict.postJson({ url: 'http://ok.example:9/hook', body: {}, timeoutMs: 500 });
      expect(looked.filter((h) => h === 'ok.example')).toHaveLength(1);
      for (let i = 0; i < 2; i++) {
        const result = await strict.postJson({
          url: 'http://in.example/hook',
          body: {},
          timeoutMs: 500,
        });
        expect(asFailure(result).kind).toBe('blocked');
      }
      expect(looked.filter((h) => h === 'in.example')).toHaveLength(2);
    } finally {
      strict.destroy();
    }
  });
});
