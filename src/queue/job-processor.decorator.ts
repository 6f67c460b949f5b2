import { Process, Processor } from '@nestjs/bull';
import { SetMetadata } from '@nestjs/common';
import { QUEUE_SETTINGS, type QueueName } from '../contracts/queues';
import { inJobSpan } from '../telemetry/spans';
import type { QueueJob } from './job-queue';

export const JOB_PROCESSOR_QUEUE = 'queue:processor';

/** The shape every processor class has. */
export interface JobHandler<D, R> {
  handle(job: QueueJob<D>): Promise<R>;
}

/**
 * Marks a class as the handler of `queue`. With Redis it is a Bull processor whose `handle(job)`
 * runs with the queue's concurrency from `QUEUE_SETTINGS`; without Redis the in-process queue
 * calls the same `handle(job)`. Either way each run is a span of the queue (`inJobSpan`), in the
 * trace the job data's `traceparent` names.
 */
export function JobProcessor(queue: QueueName): ClassDecorator {
  return (target) => {
    const prototype = target.prototype as object;
    const handle = Object.getOwnPropertyDescriptor(prototype, 'handle');
    if (!handle || typeof handle.value !== 'function')
      throw new Error(`${target.name} handles ${queue} jobs but has no handle(job)`);
    const run = handle.value as JobHandler<unknown, unknown>['handle'];
    handle.value = function traced(this: unknown, job: QueueJob<unknown>) {
      return inJobSpan(queue, job, () => run.call(this, job));
    };
    Object.defineProperty(prototype, 'handle', handle);
    Process({ concurrency: QUEUE_SETTINGS[queue].concurrency })(prototype, 'handle', handle);
    Processor(queue)(target);
    SetMetadata(JOB_PROCESSOR_QUEUE, queue)(target);
  };
}
