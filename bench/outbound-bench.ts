/**
 * `npm run bench:outbound`: CPU of the outbound client's side of one webhook request, through axios
 * with its own Node adapter and with `nodeHttpAdapter` (src/common/http/node-http-adapter.ts), with
 * the request config `OutboundHttpClient` sends (a JSON body already serialised, its headers, an
 * abort signal, the body read as bytes under a cap), against the bench webhook in its own process.
 *
 * After a warm-up, BENCH_ROUNDS (10) rounds per adapter of BENCH_REQUESTS (4000) requests with
 * BENCH_CONCURRENCY (20) in flight, the two adapters taking turns (the first of each pair
 * alternating) so that a drift of the machine's speed reaches both alike. Figure: this process's CPU
 * time (user + system) over the round's requests, in µs; median and range of the rounds. Needs a
 * build (`npm run build`; BENCH_DIST). Writes bench/results/outbound.md.
 */
import { writeFileSync } from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import { join } from 'node:path';
import axios, { type AxiosAdapter, type AxiosRequestConfig } from 'axios';
import type { outboundRequestConfig } from '../src/common/http/outbound-http.client';
import { machine, percentile, round, startWebhook } from './lib';

const DIST = process.env.BENCH_DIST ?? 'dist';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 10);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 20);

type AdapterName = 'axios http adapter' | 'nodeHttpAdapter';

async function main(): Promise<void> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const built = require(join(process.cwd(), DIST, 'common/http/node-http-adapter.js')) as {
    nodeHttpAdapter: AxiosAdapter;
  };
  const outbound = require(join(process.cwd(), DIST, 'common/http/outbound-http.client.js')) as {
    outboundRequestConfig: typeof outboundRequestConfig;
  };
  /* eslint-enable @typescript-eslint/no-require-imports */
  const adapters: Record<AdapterName, AxiosAdapter | 'http'> = {
    'axios http adapter': 'http',
    nodeHttpAdapter: built.nodeHttpAdapter,
  };
  const webhook = await startWebhook();
  const agent = new http.Agent({ keepAlive: true, keepAliveMsecs: 1000, maxFreeSockets: 64 });
  const client = axios.create();
  const body = JSON.stringify({
    call_type: 'inbound',
    inbound_number: '+14155550100',
    caller_number: '+14155550199',
    room_name: 'bench-room',
    service: 'exotel',
  });
  const httpsAgent = new https.Agent();
  // The client's own config (built once per request, as the client does), with the adapter swapped.
  const config = (adapter: AxiosAdapter | 'http'): AxiosRequestConfig => ({
    ...outbound.outboundRequestConfig({
      url: webhook.url,
      body,
      headers: {
        Authorization: 'Bearer bench',
        'Content-Type': 'application/json',
        traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
        Accept: 'application/json',
        'User-Agent': 'voice-assistant-config-service',
        'webhook-id': 'msg_bench',
        'webhook-timestamp': '1700000000',
        'webhook-signature': 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
      },
      signal: new AbortController().signal,
      maxBytes: 1024 * 1024,
      httpAgent: agent,
      httpsAgent,
    }),
    adapter,
  });

  const cpuPerRequest = async (name: AdapterName, requests: number): Promise<number> => {
    const before = process.cpuUsage();
    let sent = 0;
    const worker = async () => {
      while (sent < requests) {
        sent += 1;
        const response = await client.request<Buffer>(config(adapters[name]));
        if (response.status !== 200) throw new Error(`webhook answered ${response.status}`);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    const used = process.cpuUsage(before);
    return (used.user + used.system) / requests;
  };

  const names = Object.keys(adapters) as AdapterName[];
  for (const name of names) await cpuPerRequest(name, Math.min(REQUESTS, 2000));
  const samples: Record<AdapterName, number[]> = { 'axios http adapter': [], nodeHttpAdapter: [] };
  for (let i = 0; i < ROUNDS; i++) {
    for (const name of i % 2 ? [...names].reverse() : names)
      samples[name].push(await cpuPerRequest(name, REQUESTS));
  }
  agent.destroy();
  httpsAgent.destroy();
  webhook.child.kill();
  writeReport(samples);
}

/** The rounds' median, as the other benches take it. */
const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

function writeReport(samples: Record<AdapterName, number[]>): void {
  const base = median(samples['axios http adapter']);
  const rows = (Object.entries(samples) as [AdapterName, number[]][]).map(([name, values]) => {
    const m = median(values);
    const range = `${round(Math.min(...values), 1)}–${round(Math.max(...values), 1)}`;
    const change = name === 'axios http adapter' ? '—' : `${round((100 * (m - base)) / base, 1)}%`;
    return `| ${name} | **${round(m, 1)}** | ${range} | ${change} |`;
  });
  const text = [
    '# The outbound client: axios with its own Node adapter, and with nodeHttpAdapter',
    '',
    'Command: `npm run build && npm run bench:outbound` (bench/outbound-bench.ts). The request config the',
    `outbound client sends, against the bench webhook in its own process; ${ROUNDS} rounds per adapter of`,
    `${REQUESTS} requests, ${CONCURRENCY} in flight, the adapters taking turns. CPU of the calling process`,
    'per request (user + system), µs.',
    '',
    '| adapter | CPU µs per request, median | range of the rounds | change |',
    '|---|---|---|---|',
    ...rows,
    '',
    `- ${new Date().toISOString()}, ${machine()}.`,
    '',
  ].join('\n');
  writeFileSync(join('bench', 'results', 'outbound.md'), text);
  process.stdout.write(text);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
