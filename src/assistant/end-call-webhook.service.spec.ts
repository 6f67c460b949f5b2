import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import type { QueueJob } from '../queue/job-queue';
import type { EndCallJobData, EndCallOutcome } from '../contracts/end-call-webhook.contract';
import {
  EndCallWebhookProcessor,
  deliveryWebhookId,
  endCallWebhookJobOptions,
} from './end-call-webhook.processor';
import { classifyDelivery, type EndCallWebhookService } from './end-call-webhook.service';

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

describe('endCallWebhookJobOptions', () => {
  it('defaults to 6 attempts with exponential backoff from 2 s, more than a minute in all', () => {
    const options = endCallWebhookJobOptions();
    expect(options).toMatchObject({ attempts: 6, backoff: { type: 'exponential', delay: 2000 } });
    // Bull's exponential backoff: (2^n - 1) * delay before attempt n + 1.
    const total = [1, 2, 3, 4, 5].reduce((sum, n) => sum + (2 ** n - 1) * 2000, 0);
    expect(total).toBeGreaterThan(60_000);
  });

  it('reads the configured attempts and backoff', () => {
    const values: Record<string, number> = {
      'webhook.endCallAttempts': 3,
      'webhook.endCallBackoffMs': 50,
    };
    const config = { get: <T>(key: string) => values[key] as T };
    expect(endCallWebhookJobOptions(config)).toMatchObject({
      attempts: 3,
      backoff: { type: 'exponential', delay: 50 },
    });
  });
});

describe(EndCallWebhookProcessor.name, () => {
  const data: EndCallJobData = { assistant_id: 'a', room_name: 'r', payload: { ended: true } };

  function run(status: EndCallOutcome['status'], attemptsMade = 0, attempts = 6) {
    let discarded = false;
    const calls: unknown[] = [];
    const service = {
      deliver: (d: EndCallJobData, attempt: unknown) => {
        calls.push(attempt);
        return Promise.resolve({
          status,
          status_code: null,
          attempt: 1,
          error: 'HTTP 503',
          log_id: null,
        });
      },
    } as unknown as EndCallWebhookService;
    const job: QueueJob<EndCallJobData> = {
      id: '17',
      data,
      timestamp: 1_700_000_000_000,
      attemptsMade,
      opts: { attempts },
      discard: () => {
        discarded = true;
      },
    };
    return {
      promise: new EndCallWebhookProcessor(service).handle(job),
      calls,
      discarded: () => discarded,
      job,
    };
  }

  it('completes a delivered or skipped job', async () => {
    await expect(run('delivered').promise).resolves.toMatchObject({ status: 'delivered' });
    await expect(run('skipped').promise).resolves.toMatchObject({ status: 'skipped' });
  });

  it('throws a retryable failure without discarding, so Bull retries', async () => {
    const r = run('retry', 2);
    await expect(r.promise).rejects.toThrow('end-call webhook delivery failed: HTTP 503');
    expect(r.discarded()).toBe(false);
    expect(r.calls).toEqual([{ attempt: 3, maxAttempts: 6, webhookId: deliveryWebhookId(r.job) }]);
  });

  it('discards a final failure', async () => {
    const r = run('failed');
    await expect(r.promise).rejects.toThrow('failed permanently');
    expect(r.discarded()).toBe(true);
  });

  it('discards malformed data at once', async () => {
    let discarded = false;
    const job = {
      id: 1,
      data: { room_name: 'r' },
      attemptsMade: 0,
      opts: {},
      discard: () => (discarded = true),
    };
    const processor = new EndCallWebhookProcessor({} as EndCallWebhookService);
    await expect(processor.handle(job as unknown as QueueJob<EndCallJobData>)).rejects.toThrow(
      'malformed end-call-webhook job: assistant_id must be a non-empty string',
    );
    expect(discarded).toBe(true);
  });

  it('derives one webhook-id per job, the same on every attempt', () => {
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
