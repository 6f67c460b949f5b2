import { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { loggableError } from '../common/errors/loggable-error';

/** The part of Bull's queue (not in its typings) that names a worker's blocking connection. */
interface NamesWorkers {
  setWorkerName?: () => Promise<void>;
}

/**
 * Bull labels a worker's blocking connection (`CLIENT SETNAME`, read back by `getWorkers()`) from
 * inside `queue.process()` and drops the promise (bull 4, `Queue.prototype.setHandler`). When the
 * queue closes before that connection is up (a worker stopped right after it started, or Redis
 * going away during boot), the promise rejects with "Connection is closed." and nothing handles
 * it; Node 20 ends the process on an unhandled rejection. The label is informational, so a
 * failure to set it is logged at debug and the queue carries on.
 */
export function settleWorkerNaming(queue: Queue, logger = new Logger('Queue')): void {
  const target = queue as unknown as NamesWorkers;
  const setWorkerName = target.setWorkerName?.bind(queue);
  if (!setWorkerName) return;
  target.setWorkerName = () =>
    setWorkerName().catch((error: unknown) => {
      logger.debug(
        { err: loggableError(error), queue: queue.name },
        'could not label the worker connection',
      );
    });
}
