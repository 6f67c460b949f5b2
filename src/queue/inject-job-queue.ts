import { Inject } from '@nestjs/common';
import { jobQueueToken } from './job-queue';
import type { QueueName } from './queue.constants';

/** Injects the `JobQueue` for `name`, Bull-backed or in-process depending on the run mode. */
export const InjectJobQueue = (name: QueueName) => Inject(jobQueueToken(name));
