/**
 * The HTTP part of `npm run bench`: the bare NestJS + Express route (its own process), then
 * `GET /auth/check-key`, `GET /assistant/details/:id`, `GET /assistant/list?limit=20` on the built
 * service, then the bare route again (the machine's load drifts: ratios are to the mean of both).
 * Each service route is loaded for 3 s first, unmeasured (the JIT and the seeding's garbage settle).
 * Each under autocannon after a 2 s warm-up, with what one request cost, counted over the measured
 * run: CPU µs by process, Redis commands, MySQL statements.
 */
import autocannon from 'autocannon';
import { startCounting, type PerJobCounts } from './counters';
import { load, type HttpResult, type Server } from './lib';
import type { ProcessSet } from './process-cpu';

export const HTTP_TARGETS: Record<string, number> = { check: 60, details: 50, list: 40 };

export interface RouteFigures extends HttpResult {
  id: string;
  requests: number;
  counts: PerJobCounts;
}

export interface HttpPhase {
  routes: RouteFigures[];
  /** Mean req/s and CPU µs per request of the two runs of the bare route. */
  ceiling: { reqPerSec: number; cpuUs: number };
}

export interface HttpSetup {
  nest: Server;
  service: Server;
  /** The service's paths: the first seeded assistant's details, the list. */
  assistantId: string;
  key: string;
  connections: number;
  seconds: number;
  redisUrl: string;
  /** Redis and MySQL servers' processes, counted beside the one measured. */
  shared: ProcessSet;
}

/** One route under load, counted. */
async function route(
  s: HttpSetup,
  id: string,
  name: string,
  server: Server,
  path: string,
): Promise<RouteFigures> {
  const isService = server === s.service;
  const processes: ProcessSet = {
    [isService ? 'service' : 'bare Nest']: [server.child.pid ?? 0],
    ...s.shared,
  };
  let stop: Awaited<ReturnType<typeof startCounting>> | undefined;
  let counts: PerJobCounts = { cpuUs: {}, redis: null, sql: null };
  let requests = 0;
  const opts: autocannon.Options = {
    url: `${server.url}${path}`,
    connections: s.connections,
    duration: s.seconds,
    headers: { Authorization: `Bearer ${s.key}` },
  };
  const result = await load(name, opts, server.child.pid, {
    before: async () => {
      stop = await startCounting(processes, s.redisUrl, isService ? [s.service] : []);
    },
    after: async (n) => {
      requests = n;
      if (stop) counts = await stop(n);
    },
  });
  const figures = { ...result, id, requests, counts };
  console.log(JSON.stringify({ id, counts }));
  return figures;
}

/** Every service route once under load, unmeasured: the JIT and the seeding's garbage settle first. */
async function warmUp(s: HttpSetup, paths: string[]): Promise<void> {
  for (const path of paths)
    await autocannon({
      url: `${s.service.url}${path}`,
      connections: s.connections,
      duration: 3,
      headers: { Authorization: `Bearer ${s.key}` },
    });
}

export async function httpPhase(s: HttpSetup): Promise<HttpPhase> {
  const details = `/assistant/details/${s.assistantId}`;
  await warmUp(s, ['/auth/check-key', details, '/assistant/list?limit=20']);
  const routes = [
    await route(s, 'nest', 'bare NestJS + Express route', s.nest, '/ping'),
    await route(s, 'check', 'GET /auth/check-key', s.service, '/auth/check-key'),
    await route(s, 'details', 'GET /assistant/details/:id', s.service, details),
    await route(s, 'list', 'GET /assistant/list?limit=20', s.service, '/assistant/list?limit=20'),
    await route(s, 'nestAfter', 'bare NestJS + Express route, again', s.nest, '/ping'),
  ];
  const bare = routes.filter((r) => r.id.startsWith('nest'));
  const mean = (f: (r: RouteFigures) => number) => bare.reduce((a, r) => a + f(r), 0) / bare.length;
  return {
    routes,
    ceiling: {
      reqPerSec: mean((r) => r.reqPerSec),
      cpuUs: Math.round(mean((r) => r.counts.cpuUs['bare Nest'] ?? Number.NaN)),
    },
  };
}
