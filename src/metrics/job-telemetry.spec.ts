import { EventEmitter } from 'node:events';
import { Logger } from '@nestjs/common';
import type { ModuleRef } from '@nestjs/core';
import type { Job, Queue } from 'bull';
import { ALL_QUEUES, QUEUES, type QueueName } from '../contracts/queues';
import { BullJobQueue } from '../queue/bull-job-queue';
import { jobQueueToken, type JobQueue } from '../queue/job-queue';
import { SyncJobQueue } from '../queue/sync-job-queue';
import { JobTelemetry } from './job-telemetry';
import type { MetricsService } from './metrics.service';

function telemetryOver(make: (name: QueueName) => JobQueue): {
  telemetry: JobTelemetry;
  queues: Map<string, JobQueue>;
} {
  const queues = new Map(ALL_QUEUES.map((name) => [jobQueueToken(name), make(name)]));
  const moduleRef = { get: (token: string) => queues.get(token) } as unknown as ModuleRef;
  const metrics = { observeJob: jest.fn() } as unknown as MetricsService;
  const telemetry = new JobTelemetry(moduleRef, metrics);
  telemetry.onApplicationBootstrap();
  return { telemetry, queues };
}

const job = (id: string) =>
  ({ id, attemptsMade: 0, opts: {}, processedOn: Date.now(), finishedOn: Date.now() }) as Job;

describe(`${JobTelemetry.name} at shutdown`, () => {
  let log: jest.SpyInstance;
  beforeEach(() => {
    log = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => jest.restoreAllMocks());

  const shutdownLines = () =>
    log.mock.calls.map((call) => call.at(-1) as unknown).filter((m) => m !== undefined);

  it('names the Bull jobs this process is still running, per queue', async () => {
    const { telemetry, queues } = telemetryOver(
      (name) => new BullJobQueue(Object.assign(new EventEmitter(), { name }) as unknown as Queue),
    );
    const bull = (name: QueueName) => (queues.get(jobQueueToken(name)) as BullJobQueue).queue;
    bull(QUEUES.INBOUND_CONTEXT_LOOKUP).emit('active', job('1'));
    bull(QUEUES.INBOUND_CONTEXT_LOOKUP).emit('active', job('2'));
    bull(QUEUES.TOOL_CALL).emit('active', job('3'));
    bull(QUEUES.INBOUND_CONTEXT_LOOKUP).emit('completed', job('1'));
    bull(QUEUES.TOOL_CALL).emit('failed', job('3'), new Error('webhook down'));
    log.mockClear();

    await telemetry.beforeApplicationShutdown();
    expect(shutdownLines()).toEqual([
      'Waiting for running jobs to finish (inbound-context-lookup: 1)',
    ]);
  });

  it('adds no line when nothing is running (the process has said it is stopping)', async () => {
    const { telemetry } = telemetryOver((name) => new SyncJobQueue(name));
    log.mockClear();
    await telemetry.beforeApplicationShutdown();
    expect(log).not.toHaveBeenCalled();
  });
});
