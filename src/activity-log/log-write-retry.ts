import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';
import { QUEUE_SETTINGS, QUEUES } from '../contracts/queues';
import { InjectJobQueue } from '../queue/inject-job-queue';
import type { JobQueue } from '../queue/job-queue';
import type { MaintenanceJobData } from '../queue/maintenance-tasks';
import type { ActivityLogInput } from './activity-log.service';

export const WRITE_LOG_ENTRY = 'write-log-entry';

/** An entry whose timestamp is set (the time it happened, kept through every retry). */
export type TimedEntry = ActivityLogInput & { timestamp: Date };

/**
 * The job id of a kept entry, so one entry is one job however often it is handed over: its
 * attempt's key when it has one, else a digest of owner, room, type, timestamp and trace id.
 */
export function keptEntryJobId(entry: TimedEntry): string {
  if (entry.attempt_key) return `log-entry:${entry.attempt_key}`;
  const natural = [
    entry.user_id,
    entry.room_name,
    entry.log_type,
    entry.timestamp.toISOString(),
    entry.trace_id ?? null,
  ];
  return `log-entry:${createHash('sha256').update(JSON.stringify(natural)).digest('hex')}`;
}

/**
 * Entries the database cannot take now (down, or refusing) go to the `maintenance` queue as the
 * task `write-log-entry` (LogWriteTask), which writes each once the database answers, with its original
 * timestamp: none lost (the queue retries it), none twice (one job per entry, and the task skips an
 * entry the log already holds). Entries are already redacted as the log stores them, so a job holds
 * no secret.
 */
@Injectable()
export class LogWriteRetry {
  private readonly logger = new Logger(LogWriteRetry.name);

  constructor(
    @InjectJobQueue(QUEUES.MAINTENANCE) private readonly queue: JobQueue<MaintenanceJobData>,
  ) {}

  /** Hands `entry` to the queue; logged as lost when the queue cannot take it either. */
  async keep(entry: TimedEntry): Promise<void> {
    const data = {
      task: WRITE_LOG_ENTRY,
      entry: { ...entry, timestamp: entry.timestamp.toISOString() },
    } as const;
    // The queue's own retries (QUEUE_SETTINGS): many, with a capped backoff.
    const options = { ...QUEUE_SETTINGS[QUEUES.MAINTENANCE].options, jobId: keptEntryJobId(entry) };
    try {
      await this.queue.add(data, options);
    } catch (error) {
      this.logger.error(
        { err: loggableError(error), log_type: entry.log_type, room_name: entry.room_name },
        'activity log entry lost: neither the database nor the queue took it',
      );
    }
  }
}
