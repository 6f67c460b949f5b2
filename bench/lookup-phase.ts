/**
 * The lookup part of `npm run bench`, through one plain `bull` producer (bench/lookups-drive.ts):
 * 1. the bare lookup worker (bench/lookup-ceiling.ts, its own process): its peak; then the same worker
 *    posting through axios, the product's fixed client (its peak, reported as its share of the bare
 *    worker's: what the client holds of the gap, not a ceiling or a target);
 * 2. the built service with role `all`: its peak, then paced at half of it;
 * 3. the built service with `APP_ROLE=api` and a separate `node <dist>/worker.js`: the same;
 * 4. the bare lookup worker again: its peak, then paced at each rate of 2 and 3 (the same rate as the
 *    service's paced phase, so the p99s compare like for like).
 * Peak: BENCH_JOBS lookups, BENCH_IN_FLIGHT in flight, after BENCH_WARMUP one at a time, counted
 * (CPU µs per lookup by process, Redis commands, MySQL statements). Paced: BENCH_PACED_SECONDS.
 */
import type { RedisTarget } from '../src/config/redis-target';
import { startCounting, type PerJobCounts } from './counters';
import { rssMb, type Server } from './lib';
import { openDriver, type PacedFigures } from './lookups-drive';
import type { ProcessSet } from './process-cpu';

export const LOOKUP_TARGETS = { share: 60, cpuTimes: 2, p99Times: 3 };

export interface LookupSettings {
  warmup: number;
  jobs: number;
  inFlight: number;
  pacedSeconds: number;
}

export interface PacedRun {
  rate: number;
  /** The scenario whose peak set the rate (its own name for the service). */
  of: string;
  figures: PacedFigures;
}

export interface LookupScenario {
  id: 'bare' | 'bareAxios' | 'all' | 'apiWorker' | 'bareAfter';
  name: string;
  perSecond: number;
  ok: number;
  jobs: number;
  late: number;
  counts: PerJobCounts;
  paced: PacedRun[];
  failures: Record<string, number>;
  rssMb: number[];
}

/** A process of a scenario under the name its CPU is reported by. */
export type Named = { name: string; server: Server };

export interface LookupSetup {
  target: RedisTarget & { kind: 'node' };
  settings: LookupSettings;
  /** The webhook, Redis and MySQL processes, counted beside the scenario's. */
  shared: ProcessSet;
  /** The bare worker's queue prefix and the service's, and the mapping the service looks up. */
  barePrefix: string;
  servicePrefix: string;
  inboundId: string;
  /** The bare worker; `client: 'axios'` posts through axios instead of `node:http`. */
  startBare(client?: 'axios'): Promise<Server>;
  /** The role `all` service (already running: it served the HTTP part), stopped here when done. */
  service: Server;
  /** An API and a worker process, each preloaded with bench/count-sql.ts. */
  startApiWorker(): Promise<[Server, Server]>;
}

async function scenario(
  s: LookupSetup,
  id: LookupScenario['id'],
  name: string,
  procs: Named[],
  inboundId: string,
  paced: ((peak: number) => { rate: number; of: string }[]) | { rate: number; of: string }[],
  sqlProcs: Server[] = [],
): Promise<LookupScenario> {
  const prefix = isBare(id) ? s.barePrefix : s.servicePrefix;
  const processes: ProcessSet = {
    ...Object.fromEntries(procs.map((p) => [p.name, [p.server.child.pid ?? 0]])),
    ...s.shared,
  };
  const driver = await openDriver(s.target, prefix, inboundId);
  try {
    await driver.warmUp(s.settings.warmup);
    const stop = await startCounting(processes, s.target.url, sqlProcs);
    const peak = await driver.throughput(s.settings.jobs, s.settings.inFlight);
    const counts = await stop(s.settings.jobs);
    const runs: PacedRun[] = [];
    for (const { rate, of } of typeof paced === 'function' ? paced(peak.perSecond) : paced)
      runs.push({ rate, of, figures: await driver.paced(rate, s.settings.pacedSeconds) });
    const result: LookupScenario = {
      id,
      name,
      perSecond: peak.perSecond,
      ok: peak.ok,
      jobs: s.settings.jobs,
      late: peak.late,
      counts,
      paced: runs,
      failures: { ...driver.failures },
      rssMb: procs.map((p) => rssMb(p.server.child.pid)),
    };
    console.log(JSON.stringify(result));
    return result;
  } finally {
    await driver.close();
  }
}

/** The bare worker's scenarios, its axios variant included (which runs on the bare queue). */
export const isBare = (id: LookupScenario['id']) => id.startsWith('bare');

const half = (of: string) => (peak: number) => [{ rate: Math.max(1, Math.round(peak / 2)), of }];

export async function lookupPhase(s: LookupSetup): Promise<LookupScenario[]> {
  const out: LookupScenario[] = [];
  let bare = await s.startBare();
  out.push(
    await scenario(
      s,
      'bare',
      'bare lookup worker',
      [{ name: 'bare worker', server: bare }],
      '',
      [],
    ),
  );
  await bare.stop();

  bare = await s.startBare('axios');
  try {
    const worker = [{ name: 'bare worker', server: bare }];
    const name = 'bare lookup worker posting through axios (what the fixed client holds)';
    out.push(await scenario(s, 'bareAxios', name, worker, '', []));
  } finally {
    await bare.stop();
  }

  const all = [{ name: 'service', server: s.service }];
  out.push(await scenario(s, 'all', 'role all', all, s.inboundId, half('role all'), [s.service]));
  await s.service.stop();

  const [apiServer, worker] = await s.startApiWorker();
  try {
    const procs = [
      { name: 'api', server: apiServer },
      { name: 'worker', server: worker },
    ];
    const name = 'APP_ROLE=api + worker';
    out.push(
      await scenario(s, 'apiWorker', name, procs, s.inboundId, half(name), [apiServer, worker]),
    );
  } finally {
    await Promise.all([apiServer.stop(), worker.stop()]);
  }

  bare = await s.startBare();
  try {
    const rates = out.flatMap((x) => x.paced.map(({ rate, of }) => ({ rate, of })));
    const again = [{ name: 'bare worker', server: bare }];
    out.push(await scenario(s, 'bareAfter', 'bare lookup worker, again', again, '', rates));
  } finally {
    await bare.stop();
  }
  return out;
}
