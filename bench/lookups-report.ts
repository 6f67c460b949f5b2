/**
 * The figures of `npm run bench:lookups`, per Redis target, and their report: one JSON file per
 * target (bench/results/lookup-scale-<target>.json) and one table of every target measured
 * (bench/results/lookup-scale.md).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DriveFigures, DriveSettings } from './lookups-drive';

export interface Scenario {
  name:
    | 'no-op Bull job'
    | 'no-op Bull job, again'
    | 'APP_ROLE=api + worker'
    | `APP_ROLE=api + ${number} workers`
    | 'role all';
  figures: DriveFigures;
  /**
   * MySQL statements the consuming process sent during the paced and throughput phases, and the
   * round trips they took (absent from reports made before trips were counted).
   */
  sql: { total: number; logWrites: number; roundTrips?: number } | null;
  rssMb: number[];
}

export interface TargetReport {
  target: 'redis' | 'cluster';
  redis: string;
  date: string;
  machine: string;
  settings: DriveSettings;
  /** How the producer waits for results (PRODUCER_NOTE). */
  producer: string;
  scenarios: Scenario[];
}

function rows(r: TargetReport): string[] {
  const noops = r.scenarios.filter((s) => s.name.startsWith('no-op'));
  const mean = (f: (s: Scenario) => number) =>
    noops.length ? noops.reduce((a, s) => a + f(s), 0) / noops.length : Number.NaN;
  const noopPerSecond = Math.round(mean((s) => s.figures.perSecond));
  const noopP50 = mean((s) => s.figures.paced.rtP50);
  const noopP99 = mean((s) => s.figures.paced.rtP99);
  const lookups = r.settings.pacedRate * r.settings.pacedSeconds + r.settings.jobs;
  const perLookup = (n: number) => Math.round((n / lookups) * 1000) / 1000;
  return r.scenarios.map((s) => {
    const f = s.figures;
    const noop = s.name.startsWith('no-op');
    const trips =
      s.sql?.roundTrips === undefined ? '' : ` statements, ${perLookup(s.sql.roundTrips)} trips`;
    const sql = s.sql
      ? `${perLookup(s.sql.total - s.sql.logWrites)} (${perLookup(s.sql.total)}${trips})`
      : '—';
    const vsNoop = noop
      ? '—'
      : `${Math.round((f.paced.rtP50 - noopP50) * 100) / 100} / ${Math.round((f.paced.rtP99 - noopP99) * 100) / 100}`;
    const share = noop ? '—' : `${Math.round((f.perSecond / noopPerSecond) * 100)}%`;
    return `| ${r.target} | ${s.name} | ${f.paced.rtP50} / ${f.paced.rtP99} | ${noop ? '—' : `${f.overheadP50} / ${f.overheadP99}`} | ${vsNoop} | ${f.paced.ok}/${f.paced.sent} | **${f.perSecond.toLocaleString('en')}** | ${share} | ${f.ok}/${r.settings.jobs} | ${f.late} | ${sql} | ${s.rssMb.join(' + ')} |`;
  });
}

/** The machine's cores, from the report's machine line (`<n> × <model>, ...`). */
const coresOf = (r: TargetReport) => Number(/^(\d+) ×/.exec(r.machine)?.[1] ?? Number.NaN);

/** The CPU one job cost in each process over the throughput phase, and the bounds that follow. */
function cpuRows(r: TargetReport): string[] {
  return r.scenarios
    .filter((s) => s.figures.cpuUsPerJob)
    .map((s) => {
      const cpu = s.figures.cpuUsPerJob;
      const named = Object.entries(cpu).filter(([name]) => name !== 'total');
      const [busiest, busiestUs] = named.reduce((a, b) => (b[1] > a[1] ? b : a), ['—', 0]);
      const processes = named.map(([name, us]) => `${name} ${us}`).join(', ');
      const cores = Math.round((cpu.total * s.figures.perSecond) / 1e4) / 100;
      const bound = Math.round((coresOf(r) * 1e6) / cpu.total).toLocaleString('en');
      const w = s.figures.writesPerJob;
      const writes = w
        ? Object.entries(w)
            .filter(([name]) => name !== 'total')
            .map(([name, n]) => `${name} ${n}`)
            .join(', ') + ` (**${w.total}**)`
        : '—';
      return `| ${r.target} | ${s.name} | ${processes} | **${cpu.total}** | ${cores} | ${busiest}: ${Math.round(1e6 / busiestUs).toLocaleString('en')}/s | ${bound}/s | ${writes} |`;
    });
}

/** Writes this target's JSON, then the table of every target's latest JSON. */
export function writeLookupScaleReport(report: TargetReport, command: string): string {
  writeFileSync(
    join('bench/results', `lookup-scale-${report.target}.json`),
    `${JSON.stringify(report, null, 2)}\n`,
  );
  const reports = readdirSync('bench/results')
    .filter((f) => /^lookup-scale-.*\.json$/.test(f))
    .map((f) => JSON.parse(readFileSync(join('bench/results', f), 'utf8')) as TargetReport)
    .sort((a, b) => b.target.localeCompare(a.target));
  const s = report.settings;
  const md = `# Lookups on Redis and on a Redis Cluster, beside a no-op Bull job

Command: \`${command}\` (bench/lookups-bench.ts). Producer: a plain \`bull\` queue, \`add(data)\` with no
options (cluster: the hash-tagged prefix and a \`createClient\` giving an ioredis \`Cluster\`, and the subscriber on the master of the queue's slot, as the shipped clients do); results: ${report.producer}
(\`BENCH_PRODUCER=finished\`: \`job.finished()\` per job).
Paced: ${s.pacedRate}/s for ${s.pacedSeconds} s. Throughput: ${s.jobs.toLocaleString('en')} jobs, ${s.inFlight} in flight. Milliseconds.

- *round trip*: \`add()\` to the result, jobs of the paced phase answered in time (not *late*).
- *overhead*: per job, round trip minus the webhook latency the service measured (\`latency_ms\`).
- *above no-op*: lookup round trip minus the no-op job's (mean of the two no-op runs), at p50 / p99.
- *share of no-op*: lookups/s over the no-op job's lookups/s (mean of the two runs).
- *MySQL per lookup*: statements the consuming process sent during both phases over the lookups
  made: statements other than the activity log's own writes (in brackets: every statement, and the
  round trips they took; a multi-statement query is one trip).
- *late*: answered after 5 s, both phases, left out of the percentiles. With \`job.finished()\`, which checks
  the job's state and then listens, a completion event published in between is missed and Bull's 5-second
  watchdog finds the result: a cost of that producer, not of the service (each late job also holds one of
  the in-flight slots for 5 s, which lowers lookups/s). The default producer cannot miss an event.
- The targets are ratios to a bare lookup worker, measured by \`npm run bench\` (docs/benchmarks.md); this
  report compares Redis with a cluster and worker counts, beside the no-op job.

| redis | scenario | round trip p50 / p99 | overhead p50 / p99 | above no-op p50 / p99 | paced answered | lookups/s | share of no-op | answered | late | MySQL per lookup | RSS after, MB |
|---|---|---|---|---|---|---|---|---|---|---|---|
${reports.flatMap(rows).join('\n')}

${reports.map((r) => `- ${r.target} (${r.redis}): ${r.date}, ${r.machine}.`).join('\n')}

CPU per job over the throughput phase, in µs, by process (from /proc; *producer* is the bench itself,
*webhook* the customer's endpoint, *redis* and *mysql* the servers). *Cores busy*: total × jobs/s. A process
runs its JavaScript on one thread, so the busiest Node process caps jobs/s near 1 s over its CPU per job;
on a machine of N cores, jobs/s is at most N s over the total (*machine bound*: where a target above it
cannot be met on this machine, whatever the processes). *Writes per job*: write system calls (\`syscw\` of
/proc/<pid>/io; each socket write is one) per job by process, a count free of the machine's timing noise.

| redis | scenario | CPU µs per job, by process | total µs | cores busy | busiest process: 1 s over its µs | machine bound | writes per job, by process (total) |
|---|---|---|---|---|---|---|---|
${reports.flatMap(cpuRows).join('\n')}
`;
  writeFileSync('bench/results/lookup-scale.md', md);
  return md;
}
