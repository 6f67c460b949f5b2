import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { OwnerGate } from './owner-gate';

const gateOf = (limit: number) =>
  new OwnerGate({ get: () => limit } as unknown as ConfigService<AppConfig, true>);

/** Work that finishes when the test says so, and says when it started. */
function held() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const work = (name: string) => () =>
    new Promise<string>((resolve) => {
      started.push(name);
      finishers.set(name, () => resolve(name));
    });
  return { started, work, finish: (name: string) => finishers.get(name)!() };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe(OwnerGate.name, () => {
  it("runs at most the cap of one owner's jobs of one queue; the next starts as one finishes", async () => {
    const gate = gateOf(2);
    const h = held();
    const runs = ['a1', 'a2', 'a3'].map((n) => gate.run(QUEUES.TOOL_CALL, 'A', h.work(n)));
    await flush();
    expect(h.started).toEqual(['a1', 'a2']);
    expect(gate.load(QUEUES.TOOL_CALL, 'A')).toEqual({ active: 2, waiting: 1 });
    h.finish('a1');
    await flush();
    expect(h.started).toEqual(['a1', 'a2', 'a3']);
    h.finish('a2');
    h.finish('a3');
    await expect(Promise.all(runs)).resolves.toEqual(['a1', 'a2', 'a3']);
    expect(gate.load(QUEUES.TOOL_CALL, 'A')).toEqual({ active: 0, waiting: 0 });
  });

  it("never makes another owner, or another queue's jobs, wait behind a saturated owner", async () => {
    const gate = gateOf(1);
    const h = held();
    const runs = [
      gate.run(QUEUES.TOOL_CALL, 'A', h.work('a-tool')),
      gate.run(QUEUES.TOOL_CALL, 'A', h.work('a-tool-2')),
      gate.run(QUEUES.TOOL_CALL, 'B', h.work('b-tool')),
      gate.run(QUEUES.INBOUND_CONTEXT_LOOKUP, 'A', h.work('a-lookup')),
    ];
    await flush();
    expect(h.started).toEqual(['a-tool', 'b-tool', 'a-lookup']);
    // Every run ends here: a run left pending would reject at its queue's timeout, in whatever
    // test file this worker runs next.
    for (const name of ['a-tool', 'b-tool', 'a-lookup']) h.finish(name);
    await flush();
    h.finish('a-tool-2');
    await expect(Promise.all(runs)).resolves.toHaveLength(4);
  });

  it("runs as many of one owner's lookups as the lookup queue takes at once, whatever the cap", async () => {
    const gate = gateOf(1);
    const h = held();
    const { concurrency } = QUEUE_SETTINGS[QUEUES.INBOUND_CONTEXT_LOOKUP];
    const names = Array.from({ length: concurrency + 1 }, (_, i) => `l${i}`);
    const lookups = names.map((n) => gate.run(QUEUES.INBOUND_CONTEXT_LOOKUP, 'A', h.work(n)));
    const tools = ['t1', 't2'].map((n) => gate.run(QUEUES.TOOL_CALL, 'A', h.work(n)));
    await flush();
    expect(h.started).toEqual([...names.slice(0, concurrency), 't1']);
    expect(gate.load(QUEUES.INBOUND_CONTEXT_LOOKUP, 'A')).toEqual({
      active: concurrency,
      waiting: 1,
    });
    for (const name of ['l0', 't1']) h.finish(name);
    await flush();
    expect(h.started.slice(-2)).toEqual([names[concurrency], 't2']);
    for (const name of [...names.slice(1), 't2']) h.finish(name);
    await expect(Promise.all([...lookups, ...tools])).resolves.toHaveLength(concurrency + 3);
  });

  it("bounds a job's run by its queue's timeout from its turn on, and holds the turn until the work ends", async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    try {
      const gate = gateOf(1);
      const h = held();
      const run = gate.run(QUEUES.END_CALL_WEBHOOK, 'A', h.work('slow'));
      run.catch(() => undefined);
      await flush();
      jest.advanceTimersByTime(30_000);
      await expect(run).rejects.toThrow('Promise timed out after 30000 milliseconds');
      expect(gate.load(QUEUES.END_CALL_WEBHOOK, 'A')).toEqual({ active: 1, waiting: 0 });
      h.finish('slow');
      await flush();
      expect(gate.load(QUEUES.END_CALL_WEBHOOK, 'A')).toEqual({ active: 0, waiting: 0 });
    } finally {
      jest.useRealTimers();
    }
  });

  it('frees the turn of a job that failed', async () => {
    const gate = gateOf(1);
    await expect(
      gate.run(QUEUES.TOOL_CALL, 'A', () => Promise.reject(new Error('boom'))),
    ).rejects.toThrow('boom');
    await expect(gate.run(QUEUES.TOOL_CALL, 'A', () => Promise.resolve('next'))).resolves.toBe(
      'next',
    );
  });

  it('resolves an owner once and stands in with the key when it cannot', async () => {
    const gate = gateOf(1);
    let reads = 0;
    const resolve = () => {
      reads += 1;
      return Promise.resolve('user-1');
    };
    expect(await gate.ownerOf('assistant:x', resolve)).toBe('user-1');
    expect(await gate.ownerOf('assistant:x', resolve)).toBe('user-1');
    expect(reads).toBe(1);
    expect(await gate.ownerOf('assistant:y', () => Promise.resolve(null))).toBe(
      'unresolved:assistant:y',
    );
    expect(await gate.ownerOf('assistant:z', () => Promise.reject(new Error('db')))).toBe(
      'unresolved:assistant:z',
    );
  });
});
