import { JobContract } from '../../contracts/job-contract';
import { QUEUES } from '../../contracts/queues';
import type { PurgeResult } from '../log-retention.service';

export const LOG_RETENTION_TASK = 'purge-activity-logs';

/** Data of a `maintenance` job: which task to run. The retention purge is the only one. */
export interface MaintenanceJobData {
  task: typeof LOG_RETENTION_TASK;
}

export const LOG_RETENTION_JOB_DATA: MaintenanceJobData = { task: LOG_RETENTION_TASK };

/** Internal to the service (the scheduler adds these jobs), so not shipped with the producer contracts. */
export const maintenanceContract = new JobContract<MaintenanceJobData, PurgeResult>({
  queue: QUEUES.MAINTENANCE,
  description: 'Runs a maintenance task: the activity log retention purge.',
  data: {
    type: 'object',
    properties: { task: { const: LOG_RETENTION_TASK } },
    required: ['task'],
  },
  result: {
    type: 'object',
    properties: {
      cutoff: { type: 'string' },
      deleted: { type: 'integer', minimum: 0 },
      batches: { type: 'integer', minimum: 0 },
    },
    required: ['cutoff', 'deleted', 'batches'],
  },
  messages: { task: `must be "${LOG_RETENTION_TASK}"` },
});
