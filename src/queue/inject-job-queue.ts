import { Inject } from '@nestjs/common';
import type { QueueName } from '../contracts/queues';
import { jobQueueToken } from './job-queue';

/** Injects the `JobQueue` for `name`, Bull-backed or in-process depending on the run mode. */
export const InjectJobQueue = (name: QueueName) => Inject(jobQueueToken(name));
