import { randomUUID } from 'node:crypto';
import type { LogEntryDto } from '../../../src/activity-log/dto/log-entry.dto';
import type {
  EndCallRequestData,
  EndCallResponseData,
} from '../../../src/activity-log/log-entries';
import type {
  EndCallJobData,
  EndCallOutcome,
} from '../../../src/contracts/end-call-webhook.contract';
import { JobFailedError, jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { assistantApi } from '../../api/assistant-api';
import { assistantBody } from '../../fixtures/assistant';
import { appSuite } from '../../utils/create-test-app';
import { type CustomerResponse } from '../../utils/customer-server';

/** An end-call entry as `GET /logs` returns it, with the data its builder writes. */
type LogJson = LogEntryDto & {
  request_data: EndCallRequestData;
  response_data: EndCallResponseData;
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('end-call-webhook jobs (e2e)', () => {
  const suite = appSuite({
    users: ['user'],
    server: true,
    app: { env: { END_CALL_WEBHOOK_BACKOFF_MS: '20' } },
  });
  let queue: JobQueue<EndCallJobData, EndCallOutcome>;

  const createAssistant = async (endCallPath: string | null): Promise<string> =>
    (
      await assistantApi(suite.ctx, suite.user).create(
        assistantBody(endCallPath ? { assistant_end_call_url: suite.server.url(endCallPath) } : {}),
      )
    ).assistant_id;

  /** Answers with `sequence` in order, then repeats the last one. */
  function scripted(path: string, sequence: CustomerResponse[]): void {
    let n = 0;
    suite.server.respond(path, () => sequence[Math.min(n++, sequence.length - 1)]);
  }

  async function entries(roomName: string): Promise<LogJson[]> {
    const res = await suite.ctx
      .http()
      .get('/logs')
      .query({ room_name: roomName, log_type: 'end_call_webhook', limit: 100 })
      .set(suite.user.auth)
      .expect(200);
    // Oldest first reads like the delivery's history.
    return (res.body.data.logs as LogJson[]).reverse();
  }

  async function waitForEntries(roomName: string, count: number): Promise<void> {
    const deadline = Date.now() + 20_000;
    while ((await entries(roomName)).length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} log entries for ${roomName}`);
      await sleep(50);
    }
  }

  const payload = (roomName: string) => ({
    event: 'call.ended',
    room_name: roomName,
    duration_seconds: 73,
    ended_by: 'caller',
    transcript: [{ role: 'assistant', text: 'Hello!' }],
  });

  beforeAll(() => {
    queue = suite.ctx.app.get(jobQueueToken(QUEUES.END_CALL_WEBHOOK));
  });

  it('delivers the payload to the end-call URL and logs the attempt', async () => {
    suite.server.respond('/ended/ok', { status: 200, body: { received: true } });
    const assistantId = await createAssistant('/ended/ok');
    const roomName = `room-${randomUUID()}`;

    const outcome = await queue.request(
      { assistant_id: assistantId, room_name: roomName, payload: payload(roomName) },
      { waitMs: 15_000 },
    );

    expect(outcome).toEqual({
      status: 'delivered',
      status_code: 200,
      attempt: 1,
      error: null,
      error_class: null,
      log_id: expect.stringMatching(/^\d+$/),
      assistant_version: null,
    });
    const [request] = suite.server.requestsTo('/ended/ok');
    expect(suite.server.requestsTo('/ended/ok')).toHaveLength(1);
    expect(request.method).toBe('POST');
    expect(request.rawBody).toBe(JSON.stringify(payload(roomName)));
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.headers['webhook-id']).toMatch(/^msg_/);
    expect(request.headers['webhook-signature']).toMatch(/^v1,/);
    const logs = await entries(roomName);
    expect(logs).toEqual([
      expect.objectContaining({
        status: 'success',
        message: 'End-call webhook attempt 1 of 6 delivered (HTTP 200)',
        request_data: {
          url: suite.server.url('/ended/ok'),
          assistant_version: null,
          attempt: 1,
          max_attempts: 6,
          webhook_id: request.headers['webhook-id'],
          payload: payload(roomName),
        },
        response_data: { status_code: 200, body: { received: true }, will_retry: false },
      }),
    ]);
  });

  it('retries 429, a dropped connection and 5xx with backoff until the endpoint succeeds, with one webhook-id', async () => {
    scripted('/ended/flaky', [{ status: 429 }, { hangUp: true }, { status: 502 }, { status: 204 }]);
    const assistantId = await createAssistant('/ended/flaky');
    const roomName = `room-${randomUUID()}`;

    // No job options: the service schedules each retry itself, as a new job.
    await queue.add({ assistant_id: assistantId, room_name: roomName, payload: payload(roomName) });

    await suite.server.waitForRequests('/ended/flaky', 4, 20_000);
    await waitForEntries(roomName, 4);
    await sleep(200);
    const requests = suite.server.requestsTo('/ended/flaky');
    expect(requests).toHaveLength(4);
    expect(new Set(requests.map((r) => r.headers['webhook-id'])).size).toBe(1);
    expect(new Set(requests.map((r) => r.rawBody))).toEqual(
      new Set([JSON.stringify(payload(roomName))]),
    );
    // Exponential backoff from END_CALL_WEBHOOK_BACKOFF_MS: 20, 40, 80 ms, in both modes.
    const gaps = requests.slice(1).map((r, i) => r.receivedAt - requests[i].receivedAt);
    expect(gaps[0]).toBeGreaterThanOrEqual(15);
    expect(gaps[2]).toBeGreaterThanOrEqual(60);

    const logs = await entries(roomName);
    expect(
      logs.map((l) => [
        l.status,
        l.request_data.attempt,
        l.response_data.status_code,
        l.response_data.will_retry,
      ]),
    ).toEqual([
      ['error', 1, 429, true],
      ['error', 2, null, true],
      ['error', 3, 502, true],
      ['success', 4, 204, false],
    ]);
    expect(logs[1].response_data.error).toBe('network');
    expect(logs[0].message).toBe('End-call webhook attempt 1 of 6 failed: HTTP 429; will retry');
    expect(new Set(logs.map((l) => l.request_data.webhook_id))).toEqual(
      new Set([requests[0].headers['webhook-id']]),
    );
  });

  it('does not retry a 4xx other than 408/429', async () => {
    suite.server.respond('/ended/gone', { status: 410, body: { error: 'unknown endpoint' } });
    const assistantId = await createAssistant('/ended/gone');
    const roomName = `room-${randomUUID()}`;

    await expect(
      queue.request(
        { assistant_id: assistantId, room_name: roomName, payload: payload(roomName) },
        { waitMs: 15_000 },
      ),
    ).rejects.toBeInstanceOf(JobFailedError);
    await sleep(500);

    expect(suite.server.requestsTo('/ended/gone')).toHaveLength(1);
    const logs = await entries(roomName);
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      status: 'error',
      message: 'End-call webhook attempt 1 of 6 failed: HTTP 410; not retried',
      response_data: { status_code: 410, will_retry: false },
    });
  });

  it('stops after END_CALL_WEBHOOK_ATTEMPTS, whatever attempts the producer asked for', async () => {
    suite.server.respond('/ended/down', { status: 500 });
    const assistantId = await createAssistant('/ended/down');
    const roomName = `room-${randomUUID()}`;

    await queue.add(
      { assistant_id: assistantId, room_name: roomName, payload: payload(roomName) },
      { attempts: 3, backoff: 5 },
    );
    await waitForEntries(roomName, 6);
    await sleep(500);

    expect(suite.server.requestsTo('/ended/down')).toHaveLength(6);
    const logs = await entries(roomName);
    expect(logs.map((l) => l.message)).toEqual([
      'End-call webhook attempt 1 of 6 failed: HTTP 500; will retry',
      'End-call webhook attempt 2 of 6 failed: HTTP 500; will retry',
      'End-call webhook attempt 3 of 6 failed: HTTP 500; will retry',
      'End-call webhook attempt 4 of 6 failed: HTTP 500; will retry',
      'End-call webhook attempt 5 of 6 failed: HTTP 500; will retry',
      'End-call webhook attempt 6 of 6 failed: HTTP 500; no attempts left',
    ]);
  });

  it('completes with nothing sent and no entry when the assistant has no end-call URL', async () => {
    const assistantId = await createAssistant(null);
    const roomName = `room-${randomUUID()}`;
    const before = suite.server.requests.length;

    const outcome = await queue.request(
      { assistant_id: assistantId, room_name: roomName, payload: payload(roomName) },
      { waitMs: 15_000 },
    );

    expect(outcome).toEqual({
      status: 'skipped',
      status_code: null,
      attempt: 1,
      error: null,
      error_class: null,
      log_id: null,
      assistant_version: null,
    });
    expect(suite.server.requests.length).toBe(before);
    expect(await entries(roomName)).toEqual([]);
  });

  it('fails a job with malformed data at once', async () => {
    await expect(
      queue.request({ room_name: 'r', payload: {} } as unknown as EndCallJobData, {
        waitMs: 10_000,
      }),
    ).rejects.toBeInstanceOf(JobFailedError);
  });
});
