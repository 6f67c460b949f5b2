import type { ConfigService } from '@nestjs/config';
import type { JobOptions } from 'bull';
import type { AttemptLedger } from '../activity-log/attempt-ledger';
import { MAX_STALLED_RUNS } from '../contracts/queues';
import type { AppConfig } from '../config/app-config';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import type { JobQueue, QueueJob } from '../queue/job-queue';
import { OwnerGate } from '../queue/owner-gate';
import type { EndCallJobData, EndCallOutcome } from '../contracts/end-call-webhook.contract';
import type { AssistantRepository } from './assistant.repository';
import { CallEndings } from './call-endings';
import {
  EndCallWebhookProcessor,
  deliveryWebhookId,
  retryDelayMs,
} from './jobs/end-call-webhook.job';
import {
  classifyDelivery,
  deliveryErrorClass,
  type EndCallWebhookService,
} from './end-call-webhook.service';

const response = (status: number): OutboundHttpResult => ({
  kind: 'response',
  status,
  ok: status >= 200 && status < 300,
  contentType: null,
  text: '',
  json: { ok: false, error: 'empty body' },
  latencyMs: 5,
});

describe('classifyDelivery', () => {
  it.each<[OutboundHttpResult, string]>([
    [response(200), 'delivered'],
    [response(204), 'delivered'],
    [response(408), 'retry'],
    [response(429), 'retry'],
    [response(500), 'retry'],
    [response(502), 'retry'],
    [response(503), 'retry'],
    [response(400), 'final'],
    [response(401), 'final'],
    [response(404), 'final'],
    [response(410), 'final'],
    [response(422), 'final'],
    [response(301), 'final'],
    [{ kind: 'timeout', message: 't', latencyMs: 1 }, 'retry'],
    [{ kind: 'network', message: 'ECONNREFUSED', latencyMs: 1 }, 'retry'],
    [{ kind: 'blocked', message: 'b', latencyMs: 1 }, 'final'],
    [{ kind: 'too_large', message: 'l', latencyMs: 1 }, 'final'],
  ])('%j is %s', (outcome, verdict) => {
    expect(classifyDelivery(outcome)).toBe(verdict);
  });
});

describe('deliveryErrorClass', () => {
  it.each<[OutboundHttpResult, boolean, string | null]>([
    [response(200), false, null],
    [response(401), false, 'auth'],
    [response(404), false, 'http_4xx'],
    [response(503), false, 'http_5xx'],
    [response(301), false, 'invalid_response'],
    [{ kind: 'timeout', message: 't', latencyMs: 1 }, false, 'timeout'],
    [{ kind: 'network', message: 'ECONNREFUSED', latencyMs: 1 }, false, 'network'],
    [{ kind: 'too_large', message: 'big', latencyMs: 1 }, false, 'invalid_response'],
    [{ kind: 'blocked', message: 'private', latencyMs: 1 }, false, 'blocked'],
    // A {{secret.NAME}} in the URL that no longer resolves: nothing was sent.
    [{ kind: 'blocked', message: 'secret gone', latencyMs: 0 }, true, 'config'],
  ])('%j (unresolved %s) is %s', (outcome, unresolved, expected) => {
    expect(deliveryErrorClass(outcome, unresolved)).toBe(expected);
  });
});

describe(EndCallWebhookProcessor.name, () => {
  const data: EndCallJobData = { assistant_id: 'a', room_name: 'r', payload: { ended: true } };
  const config = (attempts: number, backoffMs: number) =>
    ({
      get: (key: string) =>
        ({ 'webhook.endCallAttempts': attempts, 'webhook.endCallBackoffMs': backoffMs })[key],
    }) as unknown as ConfigService<AppConfig, true>;

  function run(
    status: EndCallOutcome['status'],
    {
      jobData = data,
      attempts = 6,
      id = '17',
      stalls,
    }: { jobData?: unknown; attempts?: number; id?: string; stalls?: number } = {},
  ) {
    let discarded = false;
    const calls: unknown[] = [];
    const added: { data: unknown; options: JobOptions | undefined }[] = [];
    const service = {
      deliver: (_d: EndCallJobData, attempt: unknown) => {
        calls.push(attempt);
        return Promise.resolve({
          status,
          status_code: 503,
          attempt: 1,
          error: 'HTTP 503',
          log_id: '9',
        });
      },
    } as unknown as EndCallWebhookService;
    const queue = {
      add: (d: unknown, options?: JobOptions) => {
        added.push({ data: d, options });
        return Promise.resolve('next');
      },
    } as unknown as JobQueue<EndCallJobData>;
    const recovered: unknown[] = [];
    const ledger = {
      recoverLost: (journal: unknown) => {
        recovered.push(journal);
        return Promise.resolve(1);
      },
    } as unknown as AttemptLedger;
    // A Bull job's queue, as far as the stall count is read from it.
    const bullQueue =
      stalls === undefined
        ? undefined
        : {
            settings: { lockDuration: 0 },
            toKey: (jobId: string) => `bull:end-call-webhook:${jobId}`,
            client: { hget: () => Promise.resolve(String(stalls)) },
          };
    const job: QueueJob<EndCallJobData> & { queue?: unknown } = {
      id,
      queue: bullQueue,
      data: jobData as EndCallJobData,
      timestamp: 1_700_000_000_000,
      attemptsMade: 0,
      // What a producer may ask for: it must not change how often the service delivers.
      opts: { attempts: 9, backoff: 1 },
      discard: () => {
        discarded = true;
      },
    };
    const gate = new OwnerGate({ get: () => 20 } as unknown as ConfigService<AppConfig, true>);
    const ended: string[] = [];
    const endings = new CallEndings();
    endings.onEnded((room) => Promise.resolve(ended.push(room)));
    const assistants = {
      ownerOf: () => Promise.resolve({ user_id: 'u1' }),
    } as unknown as AssistantRepository;
    const processor = new EndCallWebhookProcessor(
      service,
      ledger,
      queue,
      config(attempts, 100),
      gate,
      assistants,
      endings,
    );
    const promise = processor.handle(job);
    return { promise, calls, added, discarded: () => discarded, job, recovered, ended };
  }

  it("says the room's call ended on its first job only, not on the service's own retries", async () => {
    const first = run('delivered');
    await first.promise;
    expect(first.ended).toEqual([data.room_name]);
    const retry = run('delivered', {
      jobData: { ...data, delivery: { attempt: 2, webhook_id: 'msg_x' } },
      id: 'msg_x-attempt-2',
    });
    await retry.promise;
    expect(retry.ended).toEqual([]);
  });

  it('completes a delivered or skipped job, schedules nothing', async () => {
    for (const status of ['delivered', 'skipped'] as const) {
      const r = run(status);
      await expect(r.promise).resolves.toMatchObject({ status });
      expect(r.added).toEqual([]);
    }
  });

  it('on a retryable failure completes the job and adds the next attempt itself, with the same webhook-id', async () => {
    const r = run('retry');
    await expect(r.promise).resolves.toMatchObject({ status: 'retry' });
    const webhookId = deliveryWebhookId(r.job);
    // The attempt is journaled under the job it runs in (see AttemptLedger).
    const job = { queue: 'end-call-webhook', id: r.job.id, timestamp: r.job.timestamp };
    expect(r.calls).toEqual([
      { attempt: 1, maxAttempts: 6, webhookId, trace: expect.any(Object), job },
    ]);
    const { trace_id } = (r.calls[0] as { trace: { trace_id: string } }).trace;
    expect(r.added).toEqual([
      {
        // The next attempt stays in the trace this one started.
        data: {
          ...data,
          delivery: { attempt: 2, webhook_id: webhookId },
          traceparent: expect.stringMatching(new RegExp(`^00-${trace_id}-[0-9a-f]{16}-01$`)),
        },
        options: expect.objectContaining({
          attempts: 1,
          delay: 100,
          jobId: `${webhookId}-attempt-2`,
        }),
      },
    ]);
    expect(r.discarded()).toBe(true);
  });

  it('backs off exponentially and keeps the delivery id on later attempts', async () => {
    const r = run('retry', {
      jobData: { ...data, delivery: { attempt: 3, webhook_id: 'msg_x' } },
      id: 'msg_x-attempt-3',
    });
    await r.promise;
    expect(r.calls).toEqual([
      {
        attempt: 3,
        maxAttempts: 6,
        webhookId: 'msg_x',
        trace: expect.any(Object),
        job: expect.objectContaining({ queue: 'end-call-webhook' }),
      },
    ]);
    expect(r.added[0].options).toMatchObject({ delay: 400, jobId: 'msg_x-attempt-4' });
    expect(retryDelayMs(2000, 1)).toBe(2000);
    expect(retryDelayMs(2000, 5)).toBe(32_000);
  });

  it('fails the last attempt without a Bull retry, whatever attempts the producer asked for', async () => {
    const r = run('retry', {
      jobData: { ...data, delivery: { attempt: 6, webhook_id: 'msg_x' } },
      id: 'msg_x-attempt-6',
    });
    await expect(r.promise).rejects.toThrow(
      'end-call webhook delivery failed after 6 attempts: HTTP 503',
    );
    expect(r.added).toEqual([]);
    expect(r.discarded()).toBe(true);
  });

  it("ignores a delivery field on a job the service did not schedule (the producer's)", async () => {
    const r = run('retry', { jobData: { ...data, delivery: { attempt: 5, webhook_id: 'msg_x' } } });
    await r.promise;
    expect(r.calls).toEqual([
      expect.objectContaining({ attempt: 1, webhookId: deliveryWebhookId(r.job) }),
    ]);
  });

  it('after too many worker stops sends nothing, records earlier runs and schedules the next attempt', async () => {
    const fresh = run('delivered', { stalls: MAX_STALLED_RUNS - 1 });
    await expect(fresh.promise).resolves.toMatchObject({ status: 'delivered' });
    expect(fresh.recovered).toEqual([]);

    const r = run('delivered', { stalls: MAX_STALLED_RUNS });
    await expect(r.promise).resolves.toMatchObject({
      status: 'retry',
      error_class: 'internal',
      attempt: 1,
    });
    expect(r.calls).toEqual([]);
    expect(r.recovered).toEqual([
      { queue: 'end-call-webhook', id: '17', timestamp: r.job.timestamp },
    ]);
    expect(r.added[0].options).toMatchObject({ jobId: `${deliveryWebhookId(r.job)}-attempt-2` });
  });

  it('discards a final failure', async () => {
    const r = run('failed');
    await expect(r.promise).rejects.toThrow('failed permanently');
    expect(r.discarded()).toBe(true);
    expect(r.added).toEqual([]);
  });

  it('discards malformed data at once', async () => {
    const r = run('delivered', { jobData: { room_name: 'r' } });
    await expect(r.promise).rejects.toThrow(
      'malformed end-call-webhook job: assistant_id must be a non-empty string',
    );
    expect(r.discarded()).toBe(true);
    expect(r.calls).toEqual([]);
  });

  it('derives one webhook-id per delivery from its first job', () => {
    const a = {
      id: 5,
      data,
      attemptsMade: 0,
      opts: {},
      discard: () => undefined,
      timestamp: 1700000000000,
    };
    const retry = { ...a, attemptsMade: 3 };
    const other = { ...a, id: 6 };
    const fresh = { ...a, timestamp: 1700000000001 };
    expect(deliveryWebhookId(a)).toMatch(/^msg_[A-Za-z0-9_-]{32}$/);
    expect(deliveryWebhookId(retry)).toBe(deliveryWebhookId(a));
    expect(deliveryWebhookId(other)).not.toBe(deliveryWebhookId(a));
    expect(deliveryWebhookId(fresh)).not.toBe(deliveryWebhookId(a));
  });
});
