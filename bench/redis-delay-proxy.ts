/**
 * A TCP proxy in front of Redis that holds every chunk a client sends for a fixed delay before
 * passing it on (replies go back at once, and order is kept). With the delay far above the machine's
 * own noise, a command sequence costs about `delay × its sequential round trips`, so timing one
 * against a bare PING through the same proxy counts round trips, whatever else the machine does.
 */
import { createServer, connect, type AddressInfo, type Server, type Socket } from 'node:net';

export interface DelayProxy {
  /** The proxy's `redis://` URL (the upstream's path and credentials kept). */
  url: string;
  close(): Promise<void>;
}

export async function startRedisDelayProxy(
  upstreamUrl: string,
  delayMs: number,
): Promise<DelayProxy> {
  const upstream = new URL(upstreamUrl);
  const sockets = new Set<Socket>();
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server: Server = createServer((client) => {
    const redis = connect(Number(upstream.port || 6379), upstream.hostname);
    track(client);
    track(redis);
    client.on('data', (chunk) => {
      setTimeout(() => redis.write(chunk), delayMs);
    });
    redis.pipe(client);
    client.on('close', () => redis.destroy());
    redis.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const proxied = new URL(upstreamUrl);
  proxied.hostname = '127.0.0.1';
  proxied.port = String((server.address() as AddressInfo).port);
  return {
    url: proxied.toString(),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
