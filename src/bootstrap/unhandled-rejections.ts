import type { LoggerService } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';
import type { MetricsService } from '../metrics/metrics.service';

/**
 * A promise rejection that no code handled is a bug, not a reason to stop serving every other
 * request and job (Node's default ends the process). Each one is logged as one line, with the
 * error's class, codes and stack frames and never its message (which may quote a URL or a value),
 * and counted in `process_unhandled_rejections_total`. Returns the listener's removal.
 */
export function countUnhandledRejections(
  logger: LoggerService,
  metrics: Pick<MetricsService, 'countUnhandledRejection'>,
): () => void {
  const listener = (reason: unknown) => {
    metrics.countUnhandledRejection();
    logger.error({ err: loggableError(reason) }, 'unhandled promise rejection');
  };
  process.on('unhandledRejection', listener);
  return () => process.removeListener('unhandledRejection', listener);
}
