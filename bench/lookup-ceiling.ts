/**
 * The lookup ceiling of `npm run bench`: a bare lookup worker. A Bull worker in its own process,
 * consuming a queue of the lookup queue's name and key shape (under its own prefix) with the
 * service's concurrency, that per job reads one Redis key (`<QUEUE_PREFIX>:bare-lookup:route`,
 * JSON `{url, prompt, start_instruction}`, set by the bench), POSTs the call to that URL over a
 * keep-alive `node:http` agent, and renders the prompt and start instruction from the answer's
 * `context` with the service's renderer. Nothing else: no log entry, no journal, no metrics.
 * What a lookup costs on this machine with nothing in it but its work.
 * With BARE_CLIENT=axios it POSTs through axios (its own Node adapter, the same agent) instead: not
 * the ceiling, but how much of the gap to it the product's fixed HTTP client holds.
 * Env: REDIS_URL, QUEUE_PREFIX, BARE_CLIENT. Ends on SIGTERM.
 */
import { Agent, request } from 'node:http';
import { performance } from 'node:perf_hooks';
import axios from 'axios';
import Redis from 'ioredis';
import { renderTemplate } from '../src/assistant/prompt-render';
import { configuredRedis } from '../src/config/redis-target';
import type { InboundContextLookupJobData } from '../src/contracts/inbound-context-lookup.contract';
import { QUEUES, QUEUE_SETTINGS } from '../src/contracts/queues';
import { openProducerQueue } from '../src/queue/producer-queue';

interface Route {
  url: string;
  prompt: string;
  start_instruction: string | null;
}

const MAX_BYTES = 100_000;
const target = configuredRedis();
if (!target || target.kind !== 'node') throw new Error('lookup-ceiling: REDIS_URL is required');
const prefix = process.env.QUEUE_PREFIX ?? 'bull';
const name = QUEUES.INBOUND_CONTEXT_LOOKUP;
const redis = new Redis(target.url);
const agent = new Agent({ keepAlive: true });
const { queue, close } = openProducerQueue<InboundContextLookupJobData>(name, target, prefix);

type Answer = { context?: Record<string, unknown> };

/** POSTs `body` through axios, as the service's outbound client does (no redirects, capped body). */
async function postWithAxios(url: string, body: unknown): Promise<Answer> {
  const res = await axios.post<Answer>(url, body, {
    httpAgent: agent,
    timeout: 2000,
    maxRedirects: 0,
    maxContentLength: MAX_BYTES,
  });
  return res.data;
}

/** POSTs `body` as JSON to `url`; the parsed answer. */
function postJson(url: string, body: unknown): Promise<Answer> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent,
        timeout: 2000,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')));
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
          }
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(payload);
  });
}

const post = process.env.BARE_CLIENT === 'axios' ? postWithAxios : postJson;

async function lookup(data: InboundContextLookupJobData) {
  const route = JSON.parse((await redis.get(`${prefix}:bare-lookup:route`)) ?? 'null') as Route;
  const started = performance.now();
  const answer = await post(route.url, {
    room_name: data.room_name,
    caller_number: data.caller_number ?? null,
    inbound_id: data.inbound_id ?? null,
  });
  const latency_ms = Math.round(performance.now() - started);
  const values = { context: answer.context ?? {}, call: { caller_number: data.caller_number } };
  return {
    status: 'success',
    context: answer.context ?? {},
    prompt: renderTemplate(route.prompt, values, MAX_BYTES).text,
    start_instruction: route.start_instruction
      ? renderTemplate(route.start_instruction, values, MAX_BYTES).text
      : null,
    latency_ms,
    error: null,
  };
}

void queue.process(QUEUE_SETTINGS[name].concurrency, (job) => lookup(job.data));
process.once('SIGTERM', () => {
  void close()
    .then(() => redis.quit())
    .finally(() => process.exit(0));
});
