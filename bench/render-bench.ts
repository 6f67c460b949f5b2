/**
 * `BENCH_ONLY=render npm run bench`: `POST /assistant/render/:id` with the worst-case template (a
 * prompt of 4,500 `{{context.blob}}`, a 60 KB value: 270 MB if rendering had no bound), every answer
 * the 400 naming the limit; its latency beside the bare Nest route's, and the service RSS before and
 * after it (flat: the render stops at MAX_RENDERED_PROMPT_BYTES). Writes bench/results/render.md.
 */
import { writeFileSync } from 'node:fs';
import type autocannon from 'autocannon';
import { api, load, machine, round, rssMb, type HttpResult, type Server } from './lib';

/** About the most placeholders a 100,000-character prompt holds, and a value the render route takes. */
const WORST_PROMPT = 'Hi {{context.blob}}. '.repeat(4_500);
const WORST_CONTEXT = { blob: 'v'.repeat(60_000) };

export interface RenderFigures {
  result: HttpResult;
  rssBefore: number;
  rssAfter: number;
  /** The status every answer had (one request made before the load). */
  status: number;
}

/** The render route under load with the worst-case template: latency, and the RSS before and after. */
export async function benchRender(
  service: Server,
  key: string,
  base: Omit<autocannon.Options, 'url'>,
): Promise<RenderFigures> {
  const { assistant_id } = await api<{ assistant_id: string }>(
    service.url,
    'POST',
    '/assistant/create',
    key,
    {
      assistant_name: 'Worst-case template',
      assistant_description: 'Benchmark',
      assistant_prompt: WORST_PROMPT,
      assistant_tts_model: 'cartesia',
      assistant_tts_config: { voice_id: 'voice-1' },
    },
  );
  const url = `${service.url}/assistant/render/${assistant_id}`;
  const body = JSON.stringify({ context: WORST_CONTEXT });
  const headers = { ...(base.headers ?? {}), 'Content-Type': 'application/json' };
  const probe = await fetch(url, { method: 'POST', headers, body });
  await probe.text();
  const rssBefore = rssMb(service.child.pid);
  const result = await load(
    'POST /assistant/render/:id, worst-case template',
    { ...base, url, method: 'POST', headers, body },
    service.child.pid,
  );
  return { result, rssBefore, rssAfter: rssMb(service.child.pid), status: probe.status };
}

/** What the render row measures, and the RSS around it. */
function renderNote(render: RenderFigures): string {
  return `The render row posts a 60 KB \`context\` to an assistant whose prompt is \`Hi {{context.blob}}. \` × 4,500 (94.5 kB):
unbounded, each answer would be a 270 MB prompt. Every answer is HTTP ${render.status} (the limit named; counted as
errors in the table, as every non-2xx is). Service RSS before this route ${render.rssBefore} MB, after ${render.rssAfter} MB.`;
}

/** \`BENCH_ONLY=render\`: the render route's figures alone, in bench/results/render.md. */
export function writeRenderReport(
  date: string,
  render: RenderFigures,
  nest: HttpResult,
  settings: { connections: number; seconds: number },
): void {
  const { connections: CONNECTIONS, seconds: DURATION } = settings;
  const x = render.result;
  const report = `# Render route with the worst-case template

Last run: ${date}
Machine: ${machine()}
Command: \`npm run build && BENCH_ONLY=render npm run bench\` (bench/run.ts): the built service on MySQL + Redis,
autocannon, ${CONNECTIONS} connections, ${DURATION} s after a 2 s warm-up.

| route | req/s | p50 ms | p99 ms | of bare Nest | status |
|---|---|---|---|---|---|
| ${nest.name} | ${nest.reqPerSec.toLocaleString('en')} | ${nest.p50} | ${nest.p99} | 100% | 200 |
| ${x.name} | ${x.reqPerSec.toLocaleString('en')} | ${x.p50} | ${x.p99} | ${round((x.reqPerSec / nest.reqPerSec) * 100, 0)}% | ${render.status} |

${renderNote(render)}
`;
  writeFileSync('bench/results/render.md', report);
  console.log(report);
}
