import { Logger } from '@nestjs/common';
import type { Queue } from 'bull';
import { loggableError } from '../common/errors/loggable-error';

/** The parts of Bull's queue (not in its typings) whose promises it drops. */
interface BullInternals {
  setWorkerName?: () => Promise<void>;
  _registerEvent?: (eventName: string) => Promise<unknown>;
}

/**
 * Handles the promises Bull 4 (and `@nestjs/bull`) drop. Node 20 ends the process on an unhandled
 * rejection, and each of them rejects when a queue closes before its connections were ever up (a
 * process stopped right after it started, or while Redis is unreachable):
 * - `queue.process()` calls `setWorkerName()` (`CLIENT SETNAME` on the blocking connection, read
 *   back by `getWorkers()`) without handling it. The label is informational: logged at debug.
 * - `@nestjs/bull` calls `queue.process()` without handling what it returns. That promise rejects
 *   when the worker never started (its event connection ended before it was ready): logged as a
 *   warning naming the queue.
 * - `queue.on('global:…')` subscribes on the event connection without handling it; the same end
 *   rejects it. Whoever needs the subscription chains on it; otherwise nothing is lost.
 */
export function settleDroppedPromises(queue: Queue, logger = new Logger('Queue')): void {
  const target = queue as unknown as BullInternals;
  const registerEvent = target._registerEvent?.bind(queue);
  if (registerEvent)
    target._registerEvent = (eventName: string) => {
      const registered = registerEvent(eventName);
      registered.catch(() => undefined);
      return registered;
    };

  const setWorkerName = target.setWorkerName?.bind(queue);
  if (setWorkerName)
    target.setWorkerName = () =>
      setWorkerName().catch((error: unknown) => {
        logger.debug(
          { err: loggableError(error), queue: queue.name },
          'could not label the worker connection',
        );
      });

  const process = queue.process.bind(queue) as (...args: unknown[]) => Promise<void>;
  (queue as { process: unknown }).process = (...args: unknown[]) => {
    const started = process(...args);
    started.catch((error: unknown) => {
      logger.warn(
        { err: loggableError(error), queue: queue.name },
        'the queue worker stopped before it started',
      );
    });
    return started;
  };
}
