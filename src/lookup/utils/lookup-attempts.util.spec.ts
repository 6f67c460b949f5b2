import type { ActivityLogInput, ActivityLogService } from '../../activity-log/activity-log.service';
import { LocalAttemptJournal, type JournalJob } from '../../activity-log/attempt-journal';
import { AttemptLedger, OUTCOME_UNKNOWN_MESSAGE } from '../../activity-log/attempt-ledger';
import { LookupAttempts } from './lookup-attempts.util';
import type { StrategyRequest } from './lookup-plan.util';

const job: JournalJob = { queue: 'inbound-context-lookup', id: '7', timestamp: 1_700_000_000_000 };
const route = {
  room_name: 'room-1',
  base: {
    assistant_id: 'a-1',
    assistant_name: 'Support',
    assistant_version: null,
    variant: null,
    inbound_id: 'm-1',
    strategy_id: 's-1',
  },
  version: null,
  variant: null,
  strategy: null,
};
const request: StrategyRequest = {
  user_id: 'u-1',
  strategy_id: 's-1',
  config: {
    url: 'https://crm.example.com/context',
    headers: { Authorization: 'Bearer secret-token' },
    timeout_seconds: 2,
    fallback_context: null,
  },
  payload: { room_name: 'room-1' },
  trace: { trace_id: 'trace-1', flags: '01' },
};

/** A log that takes entries once per `attempt_key`, as the unique column does. */
function fakeLog() {
  const written = new Map<string, ActivityLogInput>();
  const write = (entry: ActivityLogInput) => {
    const key = entry.attempt_key ?? String(written.size);
    if (!written.has(key)) written.set(key, entry);
    return Promise.resolve(key);
  };
  return { written, write };
}

describe(LookupAttempts.name, () => {
  const attemptsOf = (journal = new LocalAttemptJournal()) =>
    new LookupAttempts(new AttemptLedger(journal, {} as ActivityLogService), job);

  it('derives one webhook-id from the job: every run of it signs with the same one', () => {
    const journal = new LocalAttemptJournal();
    expect(attemptsOf(journal).webhookId).toMatch(/^msg_[\w-]{32}$/);
    expect(attemptsOf(journal).webhookId).toBe(attemptsOf(journal).webhookId);
    const other = new LookupAttempts(new AttemptLedger(journal, {} as ActivityLogService), {
      ...job,
      id: '8',
    });
    expect(other.webhookId).not.toBe(attemptsOf(journal).webhookId);
  });

  it('a later run records the request an earlier run journaled without an entry, once', async () => {
    const journal = new LocalAttemptJournal();
    const log = fakeLog();
    const first = attemptsOf(journal);
    const open = await first.begin(route, request, log.write);
    expect(open?.attempt).toBe(1);
    // The worker stops here; the job runs again.
    const again = attemptsOf(journal);
    expect(await again.recoverLost(log.write)).toBe(1);
    expect(await again.recoverLost(log.write)).toBe(0);
    const lost = log.written.get(open!.key)!;
    expect(lost).toMatchObject({
      log_type: 'inbound_context_lookup',
      status: 'error',
      error_class: 'internal',
      message: OUTCOME_UNKNOWN_MESSAGE,
      attempt_key: open!.key,
      request_data: { webhook_id: first.webhookId, headers: { Authorization: '****' } },
    });
    // The first run's late entry is the same attempt: not written a second time.
    const late = { ...lost, status: 'success' as const, message: 'late' };
    await first.record(late, open, log.write);
    expect([...log.written.values()].map((e) => e.message)).toEqual([OUTCOME_UNKNOWN_MESSAGE]);
  });

  it("a first run's journal read is its one write: nothing is read back", async () => {
    const journal = new LocalAttemptJournal();
    const pending = jest.spyOn(journal, 'pending');
    const log = fakeLog();
    const attempts = attemptsOf(journal);
    expect((await attempts.begin(route, request, log.write))?.attempt).toBe(1);
    // Nothing is left for the end of the run to read either.
    expect(await attempts.recoverLost(log.write)).toBe(0);
    expect(pending).not.toHaveBeenCalled();
  });

  it("a redelivered run that sends records the earlier run's lost request before its own, and not its own", async () => {
    const journal = new LocalAttemptJournal();
    const log = fakeLog();
    const lostOne = await attemptsOf(journal).begin(route, request, log.write);
    // The worker stops here; the job runs again and sends.
    const again = attemptsOf(journal);
    const pending = jest.spyOn(journal, 'pending');
    const open = await again.begin(route, request, log.write);
    expect(open?.attempt).toBe(2);
    // Read once, at the begin: the end of the run reads nothing again.
    expect(await again.recoverLost(log.write)).toBe(0);
    expect(pending).toHaveBeenCalledTimes(1);
    expect([...log.written.keys()]).toEqual([lostOne!.key]);
    expect(log.written.get(lostOne!.key)?.message).toBe(OUTCOME_UNKNOWN_MESSAGE);
    expect((await journal.pending(job)).map((a) => a.attempt)).toEqual([2]);
  });

  it('an attempt recorded in time leaves nothing for a later run', async () => {
    const journal = new LocalAttemptJournal();
    const log = fakeLog();
    const attempts = attemptsOf(journal);
    const open = await attempts.begin(route, request, log.write);
    const entry: ActivityLogInput = {
      user_id: 'u-1',
      log_type: 'inbound_context_lookup',
      status: 'success',
      assistant_id: 'a-1',
      room_name: 'room-1',
      message: 'ok',
      request_data: {},
      response_data: {},
      latency_ms: 5,
    };
    await attempts.record(entry, open, log.write);
    expect(log.written.get(open!.key)?.request_data).toEqual({ webhook_id: attempts.webhookId });
    expect(await attemptsOf(journal).recoverLost(log.write)).toBe(0);
  });
});
