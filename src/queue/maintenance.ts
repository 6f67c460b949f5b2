import { Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { JobOptions } from 'bull';
import { loggableError } from '../common/errors/loggable-error';
import { JobContract } from '../contracts/job-contract';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { InjectJobQueue } from './inject-job-queue';
import { jobData } from './job-data';
import { JobProcessor, type JobHandler } from './job-processor.decorator';
import type { JobQueue, QueueJob } from './job-queue';
import { MAINTENANCE_TASKS, MaintenanceTasks, type MaintenanceJobData } from './maintenance-tasks';

/** Internal to the service (its own modules add these jobs), so not shipped with the producer contracts. */
export const maintenanceContract = new JobContract<MaintenanceJobData, unknown>({
  queue: QUEUES.MAINTENANCE,
  version: 1,
  description:
    'Runs a maintenance task of the service: a purge, or the write of a kept activity-log entry.',
  data: {
    type: 'object',
    properties: { task: { enum: [...MAINTENANCE_TASKS] }, entry: { type: 'object' } },
    required: ['task'],
  },
  result: {},
  messages: { task: `must be one of ${MAINTENANCE_TASKS.join(', ')}` },
});

/**
 * The one `maintenance` processor: dispatches each job to its registered task by `task`. In a
 * process that consumes the queue it checks at start that every task is registered, then adds
 * each periodic task's repeatable job (its fixed job id keeps one schedule across processes and
 * restarts; in embedded mode the in-process queue repeats it).
 */
@JobProcessor(QUEUES.MAINTENANCE)
export class MaintenanceProcessor
  implements JobHandler<MaintenanceJobData, unknown>, OnApplicationBootstrap
{
  private readonly logger = new Logger(MaintenanceProcessor.name);

  constructor(
    private readonly tasks: MaintenanceTasks,
    @InjectJobQueue(QUEUES.MAINTENANCE) private readonly queue: JobQueue<MaintenanceJobData>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    this.tasks.assertEveryTask();
    for (const [task, { jobId, repeat }] of this.tasks.schedules()) {
      const options: JobOptions = { ...QUEUE_SETTINGS[QUEUES.MAINTENANCE].options, jobId, repeat };
      try {
        await this.queue.add({ task }, options);
      } catch (error) {
        // A worker that cannot reach Redis still serves the other queues once it is back; the
        // next start schedules the task.
        this.logger.warn(
          { err: loggableError(error), task },
          'could not schedule a maintenance task',
        );
      }
    }
  }

  handle(job: QueueJob<MaintenanceJobData>): Promise<unknown> {
    return this.tasks.run(jobData(maintenanceContract, job), job);
  }
}
