import { Injectable, type OnModuleInit } from '@nestjs/common';
import { MaintenanceTasks } from '../queue/maintenance-tasks';
import { IdempotencyService } from './idempotency.service';

/** How often expired keys are deleted. */
const PURGE_EVERY_MS = 10 * 60 * 1000;

/** Registers the deletion of expired keys as the periodic `maintenance` task `purge-idempotency-keys`. */
@Injectable()
export class IdempotencyPurge implements OnModuleInit {
  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly tasks: MaintenanceTasks,
  ) {}

  onModuleInit(): void {
    this.tasks.register('purge-idempotency-keys', {
      run: () => this.idempotency.purgeExpired(),
      schedule: { jobId: 'idempotency-purge', repeat: { every: PURGE_EVERY_MS } },
    });
  }
}
