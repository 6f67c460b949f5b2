import { Logger } from '@nestjs/common';
import type { ActivityLogInput, ActivityLogService } from './activity-log.service';
import {
  attemptKey,
  jobDigest,
  LocalAttemptJournal,
  RedisAttemptJournal,
  type JournalJob,
} from './attempt-journal';
import { AttemptLedger, OUTCOME_UNKNOWN_MESSAGE, outcomeUnknown } from './attempt-ledger';

const job: JournalJob = { queue: 'tool-call', id: '42', timestamp: 1_700_000_000_000 };

const entry = (message = 'sending'): ActivityLogInput => ({
  user_id: 'u-1',
  log_type: 'tool_call',
  status: 'error',
  assistant_id: 'a-1',
  room_name: 'room-1',
  message,
  request_data: { webhook_id: 'msg_x', arguments: { q: 1 } },
  response_data: { status_code: null, body: null },
  latency_ms: 0,
  timestamp: new Date('2026-01-01T00:00:00Z'),
  error_class: 'internal',
});

describe(LocalAttemptJournal.name, () => {
  it('numbers the attempts of one job across runs and lists those not settled, oldest first', async () => {
    const journal = new LocalAttemptJournal();
    expect(await journal.pending(job)).toEqual([]);
    expect(await journal.begin(job, entry('one'))).toBe(1);
    expect(await journal.begin(job, entry('two'))).toBe(2);
    await journal.settle(job, 1);
    const pending = await journal.pending(job);
    expect(pending.map((a) => [a.attempt, a.entry.message])).toEqual([[2, 'two']]);
    // Settling drops the entry, never the count: a third attempt is never numbered 1 or 2 again.
    await journal.settle(job, 2);
    expect(await journal.begin(job, entry('three'))).toBe(3);
  });

  it('keeps jobs apart by queue, id and the time they were added (a reused job id)', async () => {
    const journal = new LocalAttemptJournal();
    await journal.begin(job, entry());
    expect(await journal.pending({ ...job, timestamp: job.timestamp + 1 })).toEqual([]);
    expect(await journal.pending({ ...job, queue: 'end-call-webhook' })).toEqual([]);
    expect(await journal.pending({ ...job, id: 43 })).toEqual([]);
  });

  it('keeps a copy: a later change to the entry does not reach the journal', async () => {
    const journal = new LocalAttemptJournal();
    const e = entry();
    await journal.begin(job, e);
    e.message = 'changed';
    expect((await journal.pending(job))[0].entry.message).toBe('sending');
  });
});

describe('attempt keys', () => {
  it('are the job digest and the attempt number, at most 64 characters', () => {
    const key = attemptKey({ ...job, id: 'x'.repeat(500) }, 123456);
    expect(key).toMatch(/^[A-Za-z0-9_-]{32}\.123456$/);
    expect(key.length).toBeLessThanOrEqual(64);
    expect(attemptKey(job, 1)).toBe(`${jobDigest(job)}.1`);
    expect(attemptKey(job, 1)).not.toBe(attemptKey({ ...job, timestamp: 1 }, 1));
  });
});

describe(RedisAttemptJournal.name, () => {
  it("keys a job's attempts under the queue's own prefix: on a cluster, in the queue's hash slot", () => {
    const target = { kind: 'node' as const, url: 'redis://127.0.0.1:1' };
    const prefixes = {
      'tool-call': '{vac:tool-call}',
      'end-call-webhook': '{vac:end-call-webhook}',
      'inbound-context-lookup': '{vac:inbound-context-lookup}',
      maintenance: '{vac:maintenance}',
      'call-ended': '{vac:call-ended}',
      'event-delivery': '{vac:event-delivery}',
      'tool-call-cancel': '{vac:tool-call-cancel}',
    };
    const journal = new RedisAttemptJournal(target, prefixes);
    try {
      const key = journal.key(job);
      expect(key).toBe('{vac:tool-call}:tool-call:42:attempts:1700000000000');
      // Bull's keys of the same job: `<prefix>:<queue>:<id>`; the same hash tag, so the same slot.
      expect(key.startsWith(`${prefixes['tool-call']}:tool-call:42`)).toBe(true);
    } finally {
      journal.onModuleDestroy();
    }
  });
});

describe(`${RedisAttemptJournal.name} settle`, () => {
  /** A journal whose connection answers LSET with `lset` and LRANGE with `items`. */
  function journalWith(lset: () => Promise<unknown>, items: string[]) {
    const target = { kind: 'node' as const, url: 'redis://127.0.0.1:1' };
    const journal = new RedisAttemptJournal(target, { 'tool-call': 'vac' } as never);
    const redis = {
      lset: jest.fn(lset),
      pexpire: jest.fn(() => Promise.resolve(1)),
      lrange: jest.fn(() => Promise.resolve(items)),
    };
    Object.assign(journal, { redis });
    return { journal, redis };
  }

  it('settles a list that expired meanwhile, whatever the words of the error LSET gives', async () => {
    // Another server or version may word it otherwise: the empty list read says it is gone.
    const { journal, redis } = journalWith(() => Promise.reject(new Error('no such key')), []);
    try {
      await expect(journal.settle(job, 1)).resolves.toBeUndefined();
      expect(redis.pexpire).toHaveBeenCalledTimes(1);
    } finally {
      journal.onModuleDestroy();
    }
  });

  it('fails when LSET fails on a list that is there', async () => {
    const refused = new Error('ERR no such key');
    const { journal } = journalWith(() => Promise.reject(refused), ['']);
    try {
      await expect(journal.settle(job, 1)).rejects.toBe(refused);
    } finally {
      journal.onModuleDestroy();
    }
  });

  it("gives the day back when an earlier run's attempt is still open, in one more command", async () => {
    const { journal, redis } = journalWith(() => Promise.resolve('OK'), ['{"open":1}', '']);
    try {
      await journal.settle(job, 2);
      expect(redis.pexpire.mock.calls.map((call: unknown[]) => call[1])).toEqual([
        15 * 60 * 1000,
        24 * 3600 * 1000,
      ]);
    } finally {
      journal.onModuleDestroy();
    }
  });
});

describe(AttemptLedger.name, () => {
  beforeEach(() => jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined));
  afterEach(() => jest.restoreAllMocks());

  function ledger() {
    const journal = new LocalAttemptJournal();
    const written = new Map<string, ActivityLogInput>();
    let nextId = 1;
    const log = {
      // Insert-or-ignore on attempt_key, as the real writer does.
      record: jest.fn((input: ActivityLogInput) => {
        const key = input.attempt_key ?? `plain-${nextId}`;
        if (!written.has(key)) written.set(key, { ...input, request_data: { id: nextId++ } });
        return Promise.resolve(String(written.get(key)?.request_data.id));
      }),
    };
    return {
      journal,
      written,
      log,
      ledger: new AttemptLedger(journal, log as unknown as ActivityLogService),
    };
  }

  it('journals an attempt as "outcome unknown" and settles it once its own entry is written', async () => {
    const { journal, written, ledger: l } = ledger();
    const open = await l.begin(job, entry());
    expect(open).toEqual({ job, attempt: 1, key: attemptKey(job, 1) });
    const journaled = (await journal.pending(job))[0].entry;
    expect(journaled).toMatchObject({
      status: 'error',
      error_class: 'internal',
      message: OUTCOME_UNKNOWN_MESSAGE,
    });
    await l.record({ ...entry('answered'), status: 'success', error_class: null }, open);
    expect(await journal.pending(job)).toEqual([]);
    expect([...written.keys()]).toEqual([attemptKey(job, 1)]);
  });

  it('a redelivered job writes each lost attempt once, and leaves an attempt that has its entry as it is', async () => {
    const { journal, written, log, ledger: l } = ledger();
    // Run 1: attempt 1 sent, the worker died before its entry. Run 2: attempt 2 sent and its
    // entry written, the worker died before settling it. Run 3: attempt 3 journaled, then died.
    await journal.begin(job, outcomeUnknown(entry()));
    const second = await journal.begin(job, outcomeUnknown(entry()));
    await log.record({
      ...entry('answered'),
      status: 'success',
      attempt_key: attemptKey(job, second),
    });
    await journal.begin(job, outcomeUnknown(entry()));
    // Run 4 (each run is a JournalJob object of its own).
    expect(await l.recoverLost({ ...job })).toBe(3);
    expect([...written.keys()].sort()).toEqual(
      [attemptKey(job, 1), attemptKey(job, 2), attemptKey(job, 3)].sort(),
    );
    expect(written.get(attemptKey(job, 2))?.message).toBe('answered');
    expect(written.get(attemptKey(job, 1))?.message).toBe(OUTCOME_UNKNOWN_MESSAGE);
    expect(await journal.pending(job)).toEqual([]);
    // A fifth run finds nothing left, and its own attempt is number 4.
    expect(await l.recoverLost({ ...job })).toBe(0);
    expect((await l.begin({ ...job }, entry()))?.attempt).toBe(4);
  });

  it("reads nothing back on a job's first run, neither at its begin nor before it ends", async () => {
    const { journal, ledger: l } = ledger();
    const pending = jest.spyOn(journal, 'pending');
    const run = { ...job };
    const open = await l.begin(run, entry());
    await l.record(entry('answered'), open);
    expect(await l.recoverLost(run)).toBe(0);
    expect(pending).not.toHaveBeenCalled();
  });

  it("a redelivered run's begin records the lost attempts before its own, once per run", async () => {
    const { journal, written, ledger: l } = ledger();
    await l.begin({ ...job }, entry());
    const pending = jest.spyOn(journal, 'pending');
    const run = { ...job };
    expect((await l.begin(run, entry()))?.attempt).toBe(2);
    expect([...written.keys()]).toEqual([attemptKey(job, 1)]);
    // A second attempt in the same run, and its end: nothing read again.
    expect((await l.begin(run, entry()))?.attempt).toBe(3);
    expect(await l.recoverLost(run)).toBe(0);
    expect(pending).toHaveBeenCalledTimes(1);
    expect((await journal.pending(job)).map((a) => a.attempt)).toEqual([2, 3]);
  });

  it('a run whose journal write failed reads the earlier attempts at its begin, once', async () => {
    const { journal, written, ledger: l } = ledger();
    await l.begin({ ...job }, entry());
    const pending = jest.spyOn(journal, 'pending');
    jest.spyOn(journal, 'begin').mockRejectedValueOnce(new Error('Connection is closed.'));
    const run = { ...job };
    expect(await l.begin(run, entry())).toBeNull();
    expect([...written.keys()]).toEqual([attemptKey(job, 1)]);
    expect(await l.recoverLost(run)).toBe(0);
    expect(pending).toHaveBeenCalledTimes(1);
  });

  it('sends anyway when the journal is unreachable: no key, the entry is written as usual', async () => {
    const { journal, log, ledger: l } = ledger();
    jest.spyOn(journal, 'begin').mockRejectedValue(new Error('Connection is closed.'));
    const open = await l.begin(job, entry());
    expect(open).toBeNull();
    await l.record(entry('answered'), open);
    expect(log.record).toHaveBeenCalledWith(
      expect.not.objectContaining({ attempt_key: expect.anything() }),
    );
  });
});
