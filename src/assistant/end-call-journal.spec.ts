import { Logger } from '@nestjs/common';
import type { Repository } from 'typeorm';
import type { ActivityLogInput, ActivityLogService } from '../activity-log/activity-log.service';
import { LocalAttemptJournal, type JournalJob } from '../activity-log/attempt-journal';
import { AttemptLedger, OUTCOME_UNKNOWN_MESSAGE } from '../activity-log/attempt-ledger';
import type { WebhookSecretsService } from '../auth/webhook-secrets.service';
import type { CallVersions } from '../call-version/call-versions';
import type { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { EndCallJobData } from '../contracts/end-call-webhook.contract';
import type { SecretReferences } from '../secret/secret-references';
import type { AssistantEntity } from './assistant.entity';
import { EndCallWebhookService } from './end-call-webhook.service';
import type { PublishedVersions } from './published-versions';

const job: JournalJob = { queue: 'end-call-webhook', id: '9', timestamp: 1_700_000_000_000 };
const data: EndCallJobData = {
  assistant_id: 'a-1',
  room_name: 'room-1',
  payload: { event: 'call.ended' },
  assistant_version: null,
};
const answer = {
  kind: 'response' as const,
  status: 200,
  ok: true,
  contentType: null,
  text: '',
  json: { ok: false as const, error: 'empty body' },
  latencyMs: 4,
};
const BLOCKED = { ok: false, reason: 'blocked', error: 'address not allowed', secrets_used: [] };

/**
 * An end-call service on one in-memory journal, with every other dependency a stand-in; `events`
 * tells the order in which entries were written and requests sent.
 */
function world() {
  const journal = new LocalAttemptJournal();
  const pending = jest.spyOn(journal, 'pending');
  const events: string[] = [];
  const log = {
    record: (entry: ActivityLogInput) => {
      events.push(`entry: ${entry.status}: ${entry.message}`);
      return Promise.resolve(entry.attempt_key ?? 'plain');
    },
  };
  const post = jest.fn(() => {
    events.push('sent');
    return Promise.resolve(answer);
  });
  let request: unknown = null;
  const assistant = {
    assistant_id: 'a-1',
    user_id: 'u-1',
    assistant_end_call_url: 'https://crm.example.com/ended',
  };
  const service = new EndCallWebhookService(
    { findOne: () => Promise.resolve(assistant) } as unknown as Repository<AssistantEntity>,
    new AttemptLedger(journal, log as unknown as ActivityLogService),
    { postJson: post } as unknown as OutboundHttpClient,
    { signingSecretsFor: () => Promise.resolve([]) } as unknown as WebhookSecretsService,
    {
      resolveRequest: (_u: string, r: { url: string }) =>
        Promise.resolve(request ?? { ok: true, url: r.url, headers: {}, secrets_used: [] }),
    } as unknown as SecretReferences,
    { of: () => Promise.resolve({ version: null, source: 'job' }) } as unknown as CallVersions,
    {} as PublishedVersions,
  );
  const deliver = () =>
    service.deliver(data, { attempt: 1, maxAttempts: 3, webhookId: 'msg_x', job: { ...job } });
  /** A run whose worker stops once its request is out: journaled, no entry. */
  const killedRun = async () => {
    post.mockImplementationOnce(() => Promise.reject(new Error('worker stopped')));
    await expect(deliver()).rejects.toThrow('worker stopped');
    pending.mockClear();
    events.length = 0;
  };
  const refuse = (answer: unknown) => (request = answer);
  const noUrl = () => (assistant.assistant_end_call_url = '');
  return { deliver, pending, events, killedRun, refuse, noUrl };
}

describe('EndCallWebhookService and the attempt journal', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it("reads nothing back from the journal on a job's first run", async () => {
    const w = world();
    expect(await w.deliver()).toMatchObject({ status: 'delivered' });
    expect(w.pending).not.toHaveBeenCalled();
    expect(w.events).toEqual(['sent', expect.stringMatching(/^entry: success: /)]);
  });

  it('a redelivered run records the lost attempt before it sends again, reading the journal once', async () => {
    const w = world();
    await w.killedRun();
    expect(await w.deliver()).toMatchObject({ status: 'delivered' });
    expect(w.pending).toHaveBeenCalledTimes(1);
    expect(w.events).toEqual([
      `entry: error: ${OUTCOME_UNKNOWN_MESSAGE}`,
      'sent',
      expect.stringMatching(/^entry: success: /),
    ]);
  });

  it('a redelivered run to a blocked URL, or to none, still records the lost attempt before it ends', async () => {
    for (const [refuse, status] of [
      [(w: ReturnType<typeof world>) => w.refuse(BLOCKED), 'failed'],
      [(w: ReturnType<typeof world>) => w.noUrl(), 'skipped'],
    ] as const) {
      const w = world();
      await w.killedRun();
      refuse(w);
      expect(await w.deliver()).toMatchObject({ status });
      expect(w.pending).toHaveBeenCalledTimes(1);
      expect(w.events.filter((e) => e.includes(OUTCOME_UNKNOWN_MESSAGE))).toHaveLength(1);
      expect(w.events).not.toContain('sent');
    }
  });
});
