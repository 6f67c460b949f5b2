import { Processor } from '@nestjs/bull';
import { applyDecorators, SetMetadata } from '@nestjs/common';
import type { QueueName } from './queue.constants';

export const JOB_PROCESSOR_QUEUE = 'queue:processor';

/**
 * Marks a class as the processor of `queue`. With Redis it is a Bull processor (`@Process()` on
 * its `handle(job)` method); without Redis the in-process runner calls the same `handle(job)`.
 */
export const JobProcessor = (queue: QueueName) =>
  applyDecorators(Processor(queue), SetMetadata(JOB_PROCESSOR_QUEUE, queue));

/** The shape every processor class has. */
export interface JobHandler<D, R> {
  handle(job: import('./job-queue').QueueJob<D>): Promise<R>;
}
