import { Logger } from '@nestjs/common';
import type { ActivityLogInput, ActivityLogService } from '../activity-log/activity-log.service';
import { LocalAttemptJournal, type JournalJob } from '../activity-log/attempt-journal';
import { AttemptLedger, OUTCOME_UNKNOWN_MESSAGE } from '../activity-log/attempt-ledger';
import type { AssistantRepository } from '../assistant/assistant.repository';
import type { WebhookSecretsService } from '../auth/webhook-secrets.service';
import type { CallVersions } from '../call-version/call-versions';
import type { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { ToolCallJobData } from '../contracts/tool-call.contract';
import type { SecretReferences } from '../secret/secret-references';
import type { CallCancellation } from './call-cancellation';
import type { CallToolResolver } from './call-tool';
import type { SingleFlight } from './single-flight';
import { ToolCallService } from './tool-call.service';
import type { ToolFields } from './tool.types';

const job: JournalJob = { queue: 'tool-call', id: '5', timestamp: 1_700_000_000_000 };
const data: ToolCallJobData = {
  tool_id: 't-1',
  assistant_id: 'a-1',
  room_name: 'room-1',
  arguments: {},
  assistant_version: null,
};
const tool: ToolFields = {
  tool_name: 'order_status',
  tool_description: 'Reads an order',
  tool_parameters: [],
  side_effect: 'none',
  dedupe_key: null,
  dedupe_window_seconds: 0,
  notify_cancel: false,
  tool_execution_type: 'webhook',
  tool_execution_config: { url: 'https://tools.example.com/order', timeout: 5, headers: {} },
};
const answer = {
  kind: 'response' as const,
  status: 200,
  ok: true,
  contentType: 'application/json',
  text: '{}',
  json: { ok: true as const, value: {} },
  latencyMs: 3,
};

/**
 * A tool-call service on one in-memory journal, with every other dependency a stand-in; `events`
 * tells the order in which entries were written and requests sent.
 */
function world() {
  const journal = new LocalAttemptJournal();
  const pending = jest.spyOn(journal, 'pending');
  const events: string[] = [];
  const written = new Map<string, ActivityLogInput>();
  const log = {
    // Insert-or-ignore on attempt_key, as the real writer does.
    record: (entry: ActivityLogInput) => {
      const key = entry.attempt_key ?? `plain-${written.size}`;
      if (!written.has(key)) {
        written.set(key, entry);
        events.push(`entry: ${entry.message}`);
      }
      return Promise.resolve(key);
    },
  };
  const ledger = new AttemptLedger(journal, log as unknown as ActivityLogService);
  const post = jest.fn(() => {
    events.push('sent');
    return Promise.resolve(answer);
  });
  let assistant: { user_id: string } | null = { user_id: 'u-1' };
  const service = new ToolCallService(
    { resolve: () => Promise.resolve({ ok: true, tool }) } as unknown as CallToolResolver,
    { of: () => Promise.resolve({ version: null, source: 'job' }) } as unknown as CallVersions,
    { ownerOf: () => Promise.resolve(assistant) } as unknown as AssistantRepository,
    ledger,
    { postJson: post } as unknown as OutboundHttpClient,
    { signingSecretsFor: () => Promise.resolve([]) } as unknown as WebhookSecretsService,
    {
      resolveRequest: (_u: string, r: { url: string }) =>
        Promise.resolve({ ok: true, url: r.url, headers: {}, secrets_used: [] }),
    } as unknown as SecretReferences,
    {} as SingleFlight,
    {
      started: () => Promise.resolve(null),
      sending: () => Promise.resolve(null),
    } as unknown as CallCancellation,
  );
  /** A run whose worker stops once its request is out: journaled, no entry. */
  const killedRun = async () => {
    post.mockImplementationOnce(() => Promise.reject(new Error('worker stopped')));
    await expect(service.execute(data, { ...job })).rejects.toThrow('worker stopped');
    pending.mockClear();
    events.length = 0;
  };
  const unknownAssistant = () => (assistant = null);
  return { service, pending, events, written, killedRun, unknownAssistant };
}

describe('ToolCallService and the attempt journal', () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  it("reads nothing back from the journal on a job's first run", async () => {
    const w = world();
    const result = await w.service.execute(data, { ...job });
    expect(result.status).toBe('success');
    expect(w.pending).not.toHaveBeenCalled();
    expect(w.events).toEqual(['sent', 'entry: Tool "order_status" answered HTTP 200']);
  });

  it('a redelivered run records the lost attempt before it sends again, reading the journal once', async () => {
    const w = world();
    await w.killedRun();
    await w.service.execute(data, { ...job });
    expect(w.pending).toHaveBeenCalledTimes(1);
    expect(w.events).toEqual([
      `entry: ${OUTCOME_UNKNOWN_MESSAGE}`,
      'sent',
      'entry: Tool "order_status" answered HTTP 200',
    ]);
    expect([...w.written.keys()]).toEqual([
      expect.stringMatching(/\.1$/),
      expect.stringMatching(/\.2$/),
    ]);
  });

  it('a redelivered run that sends nothing still records the lost attempt before it ends', async () => {
    const w = world();
    await w.killedRun();
    w.unknownAssistant();
    const result = await w.service.execute(data, { ...job });
    expect(result).toMatchObject({ status: 'error', error_class: 'config' });
    expect(w.pending).toHaveBeenCalledTimes(1);
    expect(w.events).toEqual([`entry: ${OUTCOME_UNKNOWN_MESSAGE}`]);
  });
});
