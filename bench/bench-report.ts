/**
 * The report of `npm run bench`: every figure as a ratio to its ceiling measured in the same run,
 * its target beside it, and what a request or lookup cost, counted. Writes bench/results/bench.json
 * and bench/results/bench.md, and the table between the markers of docs/benchmarks.md when present;
 * the figures of the run before (the bench.json it replaces) stand beside this run's.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { commandsText, type PerJobCounts } from './counters';
import type { RoundTripSplit } from './lookups-drive';
import { HTTP_TARGETS, type HttpPhase, type RouteFigures } from './http-phase';
import { isBare, LOOKUP_TARGETS, type LookupScenario, type LookupSettings } from './lookup-phase';

export interface BenchReport {
  date: string;
  machine: string;
  command: string;
  http: HttpPhase | null;
  lookups: LookupScenario[];
  settings: { connections: number; seconds: number; lookups: LookupSettings };
}

const pct = (x: number) => `${Math.round(x * 100)}%`;
const times = (x: number) => `${Math.round(x * 100) / 100}×`;
const met = (ok: boolean) => (ok ? 'yes' : '**no**');
const DOC = 'docs/benchmarks.md';
const JSON_OUT = 'bench/results/bench.json';
const START = '<!-- bench:start -->';
const END = '<!-- bench:end -->';

/** CPU µs by process, the service's processes first, as text. */
function cpuText(cpu: Record<string, number>): string {
  return Object.entries(cpu)
    .filter(([name]) => name !== 'total')
    .map(([name, us]) => `${name === 'producer' ? 'bench (load)' : name} ${us}`)
    .join(', ');
}

function sqlText(counts: PerJobCounts): string {
  return counts.sql ? `${counts.sql.statements} (${counts.sql.roundTrips} trips)` : '—';
}

function gcText(counts: PerJobCounts): string {
  return counts.gc ? `${counts.gc.usPerJob} (${counts.gc.scavengesPer1000})` : '—';
}

/** Where a paced phase's round trips went (queued / running / told, p50 / p99), when measured. */
function splitText({ split }: { split?: RoundTripSplit }): string {
  if (!split) return '—';
  const { queuedP50, queuedP99, runningP50, runningP99, toldP50, toldP99 } = split;
  return `${queuedP50} / ${queuedP99} · ${runningP50} / ${runningP99} · ${toldP50} / ${toldP99}`;
}

/** The CPU of the service's own processes (the ones the ceiling stands for) per job. */
export function serviceCpu(s: LookupScenario): number {
  const c = s.counts.cpuUs;
  return s.id === 'apiWorker' ? (c.api ?? 0) + (c.worker ?? 0) : (c.service ?? c['bare worker']);
}

interface Verdict {
  /** The same in every run (the figure's text may name a rate). */
  key: string;
  figure: string;
  value: string;
  target: string;
  ok: boolean;
}

function httpVerdicts(h: HttpPhase): Verdict[] {
  return h.routes
    .filter((r) => HTTP_TARGETS[r.id])
    .map((r) => ({
      key: `http:${r.id}`,
      figure: `${r.name}, req/s of bare Nest`,
      value: pct(r.reqPerSec / h.ceiling.reqPerSec),
      target: `≥ ${HTTP_TARGETS[r.id]}%`,
      ok: r.reqPerSec / h.ceiling.reqPerSec >= HTTP_TARGETS[r.id] / 100,
    }));
}

function bareOf(lookups: LookupScenario[]) {
  // The ceiling: the bare worker's two peaks (its axios variant is attribution, not ceiling).
  const bare = lookups.filter((s) => s.id === 'bare' || s.id === 'bareAfter');
  const perSecond = bare.reduce((a, s) => a + s.perSecond, 0) / bare.length;
  const cpu = bare.reduce((a, s) => a + serviceCpu(s), 0) / bare.length;
  const after = lookups.find((s) => s.id === 'bareAfter');
  const p99At = (of: string) => after?.paced.find((p) => p.of === of)?.figures.rtP99 ?? Number.NaN;
  return { perSecond, cpu, p99At };
}

function lookupVerdicts(lookups: LookupScenario[]): Verdict[] {
  const bare = bareOf(lookups);
  return lookups
    .filter((s) => !isBare(s.id))
    .flatMap((s) => {
      const share = s.perSecond / bare.perSecond;
      const cpu = serviceCpu(s) / bare.cpu;
      const own = s.paced[0];
      const p99 = own ? own.figures.rtP99 / bare.p99At(own.of) : Number.NaN;
      const answered = s.ok === s.jobs && (!own || own.figures.ok === own.figures.sent);
      return [
        {
          key: `share:${s.id}`,
          figure: `lookups/s, ${s.name}, of the bare lookup worker (every lookup answered)`,
          value: `${pct(share)}${answered ? '' : ', **not all answered**'}`,
          target: `≥ ${LOOKUP_TARGETS.share}%`,
          ok: share >= LOOKUP_TARGETS.share / 100 && answered,
        },
        {
          key: `cpu:${s.id}`,
          figure: `service CPU per lookup, ${s.name}, over the bare worker's per job`,
          value: times(cpu),
          target: `≤ ${LOOKUP_TARGETS.cpuTimes}×`,
          ok: cpu <= LOOKUP_TARGETS.cpuTimes,
        },
        {
          key: `p99:${s.id}`,
          figure: `p99, ${s.name}, at 50% of its peak (${own?.rate ?? '—'}/s), over the bare worker's at that rate`,
          value: times(p99),
          target: `≤ ${LOOKUP_TARGETS.p99Times}×`,
          ok: p99 <= LOOKUP_TARGETS.p99Times,
        },
      ];
    });
}

function httpTable(h: HttpPhase): string {
  const row = (r: RouteFigures) => {
    const server = r.counts.cpuUs.service ?? r.counts.cpuUs['bare Nest'];
    return `| ${r.name} | ${r.reqPerSec.toLocaleString('en')} | ${r.p50} / ${r.p99} | ${pct(r.reqPerSec / h.ceiling.reqPerSec)} | ${HTTP_TARGETS[r.id] ? `≥ ${HTTP_TARGETS[r.id]}%` : ''} | **${server}** (${times(server / h.ceiling.cpuUs)}) | ${cpuText(r.counts.cpuUs)} | ${commandsText(r.counts.redis ?? undefined)} | ${sqlText(r.counts)} | ${r.errors + r.non2xx} |`;
  };
  return `| route | req/s | p50 / p99 ms | of bare Nest | target | server CPU µs per request (of bare Nest's) | CPU µs per request by process | Redis commands per request | MySQL statements per request | errors |
|---|---|---|---|---|---|---|---|---|---|
${h.routes.map(row).join('\n')}`;
}

function lookupTables(lookups: LookupScenario[]): string {
  const bare = bareOf(lookups);
  const peak = lookups.map(
    (s) =>
      `| ${s.name} | ${s.perSecond.toLocaleString('en')} | ${pct(s.perSecond / bare.perSecond)} | ${s.ok}/${s.jobs} | **${serviceCpu(s)}** (${times(serviceCpu(s) / bare.cpu)}) | ${cpuText(s.counts.cpuUs)} | ${commandsText(s.counts.redis ?? undefined)} | ${sqlText(s.counts)} | ${gcText(s.counts)} | ${s.rssMb.join(' + ')} |`,
  );
  const paced = lookups.flatMap((s) =>
    s.paced.map((p) => {
      const f = p.figures;
      const vs = isBare(s.id) ? '' : times(f.rtP99 / bare.p99At(p.of));
      return `| ${s.name} | ${p.rate}/s (half of ${p.of}'s peak) | ${f.ok}/${f.sent} | ${f.rtP50} / ${f.rtP99} | ${f.overheadP50} / ${f.overheadP99} | ${splitText(f)} | ${vs} |`;
    }),
  );
  return `| scenario | lookups/s | of bare worker | answered | service CPU µs per lookup (of bare worker's) | CPU µs per lookup by process | Redis commands per lookup | MySQL statements per lookup | service GC µs per lookup (scavenges per 1,000) | RSS after, MB |
|---|---|---|---|---|---|---|---|---|---|
${peak.join('\n')}

| scenario | paced rate | answered | round trip p50 / p99 ms | round trip minus webhook p50 / p99 ms | queued · running · told, p50 / p99 ms | p99 of bare worker's |
|---|---|---|---|---|---|---|
${paced.join('\n')}`;
}

function verdictsOf(r: BenchReport): Verdict[] {
  return [
    ...(r.http ? httpVerdicts(r.http) : []),
    ...(r.lookups.length ? lookupVerdicts(r.lookups) : []),
  ];
}

/**
 * The report's tables (also what goes between the markers of docs/benchmarks.md); with `previous`
 * (the run before, from bench/results/bench.json), its figures beside this run's: a target holds
 * when it is met in both.
 */
export function reportTables(r: BenchReport, previous: BenchReport | null = null): string {
  const verdicts = verdictsOf(r);
  const before = new Map((previous ? verdictsOf(previous) : []).map((v) => [v.key, v]));
  const row = (v: Verdict) => {
    const p = before.get(v.key);
    return previous
      ? `| ${v.figure} | ${v.value} | ${p?.value ?? '—'} | ${v.target} | ${met(v.ok && p?.ok === true)} |`
      : `| ${v.figure} | ${v.value} | ${v.target} | ${met(v.ok)} |`;
  };
  const head = previous
    ? `| figure | this run | run of ${previous.date} | target | met in both |\n|---|---|---|---|---|`
    : '| figure | this run | target | met |\n|---|---|---|---|';
  const failures = r.lookups
    .filter((s) => Object.keys(s.failures).length)
    .map((s) => `${s.name}: ${JSON.stringify(s.failures)}`);
  return `Run ${r.date}, ${r.machine}; \`${r.command}\`.

${head}
${verdicts.map(row).join('\n')}
${r.http ? `\n#### HTTP routes (${r.settings.connections} connections, ${r.settings.seconds} s each)\n\n${httpTable(r.http)}\n` : ''}${r.lookups.length ? `\n#### Lookups (${r.settings.lookups.jobs.toLocaleString('en')} at peak, ${r.settings.lookups.inFlight} in flight; paced ${r.settings.lookups.pacedSeconds} s)\n\n${lookupTables(r.lookups)}\n` : ''}${failures.length ? `\nFailures: ${failures.join('; ')}\n` : ''}`;
}

/** The run before, when it measured the same parts with the same settings on the same machine. */
function previousRun(r: BenchReport): BenchReport | null {
  if (!existsSync(JSON_OUT)) return null;
  const previous = JSON.parse(readFileSync(JSON_OUT, 'utf8')) as BenchReport;
  const same =
    previous.machine === r.machine &&
    JSON.stringify(previous.settings) === JSON.stringify(r.settings) &&
    Boolean(previous.http) === Boolean(r.http) &&
    previous.lookups.length === r.lookups.length;
  return same ? previous : null;
}

export function writeBenchReport(r: BenchReport): string {
  const tables = reportTables(r, previousRun(r));
  writeFileSync(JSON_OUT, `${JSON.stringify(r, null, 2)}\n`);
  writeFileSync('bench/results/bench.md', `# npm run bench: the latest run\n\n${tables}`);
  if (existsSync(DOC)) {
    const doc = readFileSync(DOC, 'utf8');
    const a = doc.indexOf(START);
    const b = doc.indexOf(END);
    if (a >= 0 && b > a)
      writeFileSync(DOC, `${doc.slice(0, a + START.length)}\n${tables}\n${doc.slice(b)}`);
  }
  return tables;
}
