import { Injectable, type OnModuleInit, type Type } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test, type TestingModule } from '@nestjs/testing';
import { ALL_QUEUES, QUEUES, type QueueName } from '../contracts/queues';
import { JobHandlers } from './job-handlers';
import { JobProcessor } from './job-processor.decorator';
import { jobQueueToken, type JobQueue, type QueueJob } from './job-queue';
import { SyncJobQueue } from './sync-job-queue';
import { MaintenanceProcessor } from './maintenance';
import {
  MAINTENANCE_TASKS,
  MaintenanceTasks,
  MaintenanceTasksModule,
  type MaintenanceTask,
  type MaintenanceTaskName,
} from './maintenance-tasks';
import { QueueModule } from './queue.module';

function handlerOf(queue: QueueName): Type<unknown> {
  @JobProcessor(queue)
  class Handler {
    handle(): Promise<null> {
      return Promise.resolve(null);
    }
  }
  return Handler;
}

/** A module above the queue registering its tasks at start, as the owners of the tasks do. */
function ownerOf(tasks: Partial<Record<MaintenanceTaskName, MaintenanceTask>>): Type<unknown> {
  @Injectable()
  class Owner implements OnModuleInit {
    constructor(private readonly registry: MaintenanceTasks) {}
    onModuleInit(): void {
      for (const [name, task] of Object.entries(tasks))
        this.registry.register(name as MaintenanceTaskName, task);
    }
  }
  return Owner;
}

const runs = (answer: string): MaintenanceTask => ({ run: () => Promise.resolve(answer) });
const every = (answer: string) =>
  Object.fromEntries(MAINTENANCE_TASKS.map((n) => [n, runs(answer)]));

/** An embedded process that consumes the queues, the maintenance processor among them. */
async function boot(owner: Type<unknown>): Promise<TestingModule> {
  const others = ALL_QUEUES.filter((name) => name !== QUEUES.MAINTENANCE).map(handlerOf);
  const moduleRef = await Test.createTestingModule({
    imports: [QueueModule.forRoot(null), MaintenanceTasksModule, DiscoveryModule],
    providers: [JobHandlers, MaintenanceProcessor, owner, ...others],
  }).compile();
  return moduleRef.init();
}

describe(MaintenanceProcessor.name, () => {
  let app: TestingModule | undefined;
  afterEach(() => app?.close());

  it('runs each job with the task it names, registered by the module that owns it', async () => {
    const tasks = every('other');
    tasks['purge-audit-entries'] = { run: (data) => Promise.resolve(`audit ${data.task}`) };
    app = await boot(ownerOf(tasks));
    const queue = app.get<JobQueue>(jobQueueToken(QUEUES.MAINTENANCE));
    await expect(queue.request({ task: 'purge-audit-entries' }, { waitMs: 1000 })).resolves.toBe(
      'audit purge-audit-entries',
    );
    await expect(queue.request({ task: 'purge-activity-logs' }, { waitMs: 1000 })).resolves.toBe(
      'other',
    );
  });

  it('fails a job naming no task, for good', async () => {
    app = await boot(ownerOf(every('ran')));
    const queue = app.get<JobQueue>(jobQueueToken(QUEUES.MAINTENANCE));
    await expect(
      queue.request({ task: 'no-such-task' }, { waitMs: 1000, attempts: 3 }),
    ).rejects.toThrow(/task must be one of/);
  });

  it('fails the start, naming the task, when a task has no registered handler', async () => {
    const { 'purge-audit-entries': _left, ...rest } = every('ran');
    await expect(boot(ownerOf(rest))).rejects.toThrow(
      /No module registered the maintenance task\(s\): purge-audit-entries/,
    );
  });

  it('refuses a task registered twice', () => {
    const tasks = new MaintenanceTasks();
    tasks.register('purge-audit-entries', runs('a'));
    expect(() => tasks.register('purge-audit-entries', runs('b'))).toThrow(/registered twice/);
  });

  it('adds each periodic task as one repeatable job under its fixed job id', async () => {
    const add = jest.spyOn(SyncJobQueue.prototype, 'add');
    const tasks = every('ran');
    tasks['purge-audit-entries'] = {
      ...runs('audit'),
      schedule: { jobId: 'audit-retention', repeat: { every: 3_600_000 } },
    };
    try {
      app = await boot(ownerOf(tasks));
      expect(add.mock.calls).toEqual([
        [
          { task: 'purge-audit-entries' },
          expect.objectContaining({ jobId: 'audit-retention', repeat: { every: 3_600_000 } }),
        ],
      ]);
    } finally {
      add.mockRestore();
    }
  });

  it('hands a task the job it runs', async () => {
    const seen: QueueJob<unknown>[] = [];
    const tasks = every('ran');
    tasks['purge-activity-logs'] = {
      run: (_data, job) => {
        seen.push(job);
        return Promise.resolve(null);
      },
    };
    app = await boot(ownerOf(tasks));
    await app
      .get<JobQueue>(jobQueueToken(QUEUES.MAINTENANCE))
      .request({ task: 'purge-activity-logs' }, { waitMs: 1000, jobId: 'job-1' });
    expect(seen.map((job) => job.id)).toEqual(['job-1']);
  });
});
