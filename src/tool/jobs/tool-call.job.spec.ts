import type { ConfigService } from '@nestjs/config';
import type { AttemptLedger } from '../../activity-log/attempt-ledger';
import type { AssistantRepository } from '../../assistant/assistant.repository';
import type { AppConfig } from '../../config/app-config';
import { MAX_STALLED_RUNS } from '../../contracts/queues';
import type { QueueJob } from '../../queue/job-queue';
import { OwnerGate } from '../../queue/owner-gate';
import type { ToolCallService } from '../tool-call.service';
import { ToolCallProcessor } from './tool-call.job';

const data = { tool_id: 't1', assistant_id: 'a1', room_name: 'r1', arguments: {} };

function setup(stalls: number) {
  const executed: unknown[] = [];
  const recovered: unknown[] = [];
  const toolCalls = {
    execute: (d: unknown) => {
      executed.push(d);
      return Promise.resolve({ status: 'success' });
    },
  } as unknown as ToolCallService;
  const ledger = {
    recoverLost: (job: unknown) => {
      recovered.push(job);
      return Promise.resolve(2);
    },
  } as unknown as AttemptLedger;
  const gate = new OwnerGate({ get: () => 20 } as unknown as ConfigService<AppConfig, true>);
  const assistants = {
    ownerOf: () => Promise.resolve({ user_id: 'u1' }),
  } as unknown as AssistantRepository;
  const job = {
    id: 'j1',
    data,
    timestamp: Date.now() - 60_000,
    attemptsMade: 0,
    opts: {},
    discard: () => undefined,
    queue: {
      settings: { lockDuration: 1000 },
      toKey: (id: string) => `bull:tool-call:${id}`,
      client: { hget: () => Promise.resolve(String(stalls)) },
    },
  } as unknown as QueueJob<typeof data>;
  const processor = new ToolCallProcessor(toolCalls, ledger, gate, assistants);
  return { run: () => processor.handle(job), executed, recovered };
}

describe(ToolCallProcessor.name, () => {
  it('runs the tool call through the per-owner gate', async () => {
    const s = setup(MAX_STALLED_RUNS - 1);
    await expect(s.run()).resolves.toEqual({ status: 'success' });
    expect(s.executed).toEqual([data]);
    expect(s.recovered).toEqual([]);
  });

  it('after too many worker stops records earlier runs and answers an error without sending', async () => {
    const s = setup(MAX_STALLED_RUNS);
    await expect(s.run()).resolves.toMatchObject({
      status: 'error',
      error_class: 'internal',
      result: null,
    });
    expect(s.executed).toEqual([]);
    expect(s.recovered).toEqual([expect.objectContaining({ queue: 'tool-call', id: 'j1' })]);
  });
});
