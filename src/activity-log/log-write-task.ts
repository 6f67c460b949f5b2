import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MaintenanceTasks } from '../queue/maintenance-tasks';
import { ActivityLogService, type ActivityLogInput } from './activity-log.service';
import { WRITE_LOG_ENTRY } from './log-write-retry';

/**
 * The `maintenance` task `write-log-entry`: writes an entry `LogWriteRetry` handed to the queue,
 * once, with its original timestamp; it rejects (the queue retries it) while the log cannot take it.
 */
@Injectable()
export class LogWriteTask implements OnModuleInit {
  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly tasks: MaintenanceTasks,
  ) {}

  onModuleInit(): void {
    this.tasks.register(WRITE_LOG_ENTRY, {
      run: ({ entry }) => {
        if (!entry || typeof entry.timestamp !== 'string')
          return Promise.reject(new Error('write-log-entry job without its entry'));
        const kept = entry as Omit<ActivityLogInput, 'timestamp'>;
        return this.activityLog.writeKept({ ...kept, timestamp: new Date(entry.timestamp) });
      },
    });
  }
}
