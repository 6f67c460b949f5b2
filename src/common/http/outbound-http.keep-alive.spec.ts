import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OutboundHttpClient } from './outbound-http.client';

/** As many requests at once as the busiest queue runs (the lookup and tool-call queues' 200). */
const BURST = 200;

describe(`${OutboundHttpClient.name}: keep-alive sockets`, () => {
  let connections = 0;
  let held: ServerResponse[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      // Every request of a burst is answered once all of them have arrived: each holds its own socket.
      held.push(res);
      if (held.length < BURST) return;
      for (const waiting of held) waiting.end('{}');
      held = [];
    });
  });
  server.on('connection', () => (connections += 1));
  server.keepAliveTimeout = 30_000;
  const client = new OutboundHttpClient({ allowPrivateNetworks: true });
  let url: string;

  const burst = () =>
    Promise.all(
      Array.from({ length: BURST }, () => client.postJson({ url, body: {}, timeoutMs: 10_000 })),
    );

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  });
  afterAll(async () => {
    client.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  it('reuses every socket of a burst for the next one: none is closed and dialled again', async () => {
    const first = await burst();
    expect(first.every((r) => r.kind === 'response' && r.ok)).toBe(true);
    expect(connections).toBe(BURST);
    await new Promise((resolve) => setImmediate(resolve)); // the sockets are back in the pool
    const second = await burst();
    expect(second.every((r) => r.kind === 'response' && r.ok)).toBe(true);
    expect(connections).toBe(BURST);
  });
});
