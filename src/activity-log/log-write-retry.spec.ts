import { QUEUES } from '../contracts/queues';
import type { JobQueue } from '../queue/job-queue';
import { MaintenanceTasks, type MaintenanceJobData } from '../queue/maintenance-tasks';
import type { ActivityLogInput, ActivityLogService } from './activity-log.service';
import { keptEntryJobId, LogWriteRetry, type TimedEntry } from './log-write-retry';
import { LogWriteTask } from './log-write-task';

const entry = (over: Partial<ActivityLogInput> = {}): TimedEntry => ({
  user_id: 'u-1',
  log_type: 'tool_call',
  status: 'success',
  assistant_id: 'a-1',
  room_name: 'room-1',
  message: 'ok',
  request_data: {},
  response_data: {},
  latency_ms: 3,
  trace_id: '0af7651916cd43dd8448eb211c80319c',
  ...over,
  timestamp: new Date('2026-11-29T06:00:00.000Z'),
});

function retryOver(add: JobQueue<MaintenanceJobData>['add']) {
  const queue = { name: QUEUES.MAINTENANCE, add, request: jest.fn() };
  return { retry: new LogWriteRetry(queue) };
}

describe(LogWriteRetry.name, () => {
  it('names the job by the attempt key, else by owner, room, type, timestamp and trace id', () => {
    expect(keptEntryJobId(entry({ attempt_key: 'job-7.1' }))).toBe('log-entry:job-7.1');
    const natural = keptEntryJobId(entry());
    expect(natural).toMatch(/^log-entry:[0-9a-f]{64}$/);
    expect(keptEntryJobId(entry({ message: 'other text' }))).toBe(natural);
    expect(keptEntryJobId(entry({ room_name: 'room-2' }))).not.toBe(natural);
    expect(keptEntryJobId(entry({ trace_id: null }))).not.toBe(natural);
  });

  it('hands the entry to the queue with its timestamp, retried by the queue', async () => {
    const add = jest.fn().mockResolvedValue('id');
    await retryOver(add).retry.keep(entry({ attempt_key: 'job-7.1' }));
    expect(add).toHaveBeenCalledWith(
      {
        task: 'write-log-entry',
        entry: expect.objectContaining({
          room_name: 'room-1',
          timestamp: '2026-11-29T06:00:00.000Z',
        }),
      },
      expect.objectContaining({
        jobId: 'log-entry:job-7.1',
        attempts: 200,
        backoff: { type: 'capped' },
      }),
    );
  });

  it('resolves (the entry logged as lost) when the queue cannot take it either', async () => {
    const add = jest.fn().mockRejectedValue(new Error('Redis down'));
    await expect(retryOver(add).retry.keep(entry())).resolves.toBeUndefined();
  });

  it('runs the task with the entry and its original timestamp', async () => {
    const tasks = new MaintenanceTasks();
    const writeKept = jest.fn().mockResolvedValue(undefined);
    new LogWriteTask({ writeKept } as unknown as ActivityLogService, tasks).onModuleInit();
    const data = {
      task: 'write-log-entry' as const,
      entry: { room_name: 'r', timestamp: '2026-11-29T06:00:00.000Z' },
    };
    await tasks.run(data, {} as never);
    expect(writeKept).toHaveBeenCalledWith({
      room_name: 'r',
      timestamp: new Date(data.entry.timestamp),
    });
    await expect(tasks.run({ task: 'write-log-entry' }, {} as never)).rejects.toThrow(
      /without its entry/,
    );
  });
});
