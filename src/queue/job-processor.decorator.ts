import { Process, Processor } from '@nestjs/bull';
import { SetMetadata } from '@nestjs/common';
import { QUEUE_SETTINGS, type QueueName } from '../contracts/queues';
import type { QueueJob } from './job-queue';

export const JOB_PROCESSOR_QUEUE = 'queue:processor';

/** The shape every processor class has. */
export interface JobHandler<D, R> {
  handle(job: QueueJob<D>): Promise<R>;
}

/**
 * Marks a class as the handler of `queue`. With Redis it is a Bull processor whose `handle(job)`
 * runs with the queue's concurrency from `QUEUE_SETTINGS`; without Redis the in-process queue
 * calls the same `handle(job)`.
 */
export function JobProcessor(queue: QueueName): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as object;
    const handle = Object.getOwnPropertyDescriptor(prototype, 'handle');
    if (!handle) throw new Error(`${target.name} handles ${queue} jobs but has no handle(job)`);
    Process({ concurrency: QUEUE_SETTINGS[queue].concurrency })(prototype, 'handle', handle);
    Processor(queue)(target);
    SetMetadata(JOB_PROCESSOR_QUEUE, queue)(target);
  };
}
