import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { DataSource } from 'typeorm';
import type { AppConfig } from '../config/app-config';
import { isUnreachable } from './deferred-connection';

const LOCK_NAME = 'voice_assistant_config_migrations';
const LOCK_WAIT_SECONDS = 120;

/**
 * Applies pending migrations at start (unless `DB_MIGRATIONS_RUN=false`). On MySQL the run holds
 * a named lock, so API replicas and workers starting together apply them once instead of racing
 * to create the same tables; the embedded SQLite file has a single process.
 */
@Injectable()
export class MigrationsRunner implements OnModuleInit {
  private readonly logger = new Logger(MigrationsRunner.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onModuleInit(): Promise<void> {
    if (!this.config.get('database.migrationsRun', { infer: true })) return;
    try {
      await this.run();
    } catch (error) {
      // A worker may start while MySQL is down (it answers lookups from the routing table): the
      // next process that starts with MySQL answering applies them.
      if (!isUnreachable(error)) throw error;
      this.logger.warn(
        'MySQL does not answer: migrations are left to the next process that starts while it does',
      );
    }
  }

  private async run(): Promise<void> {
    if (this.dataSource.options.type !== 'mysql') {
      await this.apply();
      return;
    }
    const runner = this.dataSource.createQueryRunner();
    try {
      const [row] = (await runner.query('SELECT GET_LOCK(?, ?) AS locked', [
        LOCK_NAME,
        LOCK_WAIT_SECONDS,
      ])) as {
        locked: number | string | null;
      }[];
      if (Number(row?.locked) !== 1)
        throw new Error(`could not take the migration lock within ${LOCK_WAIT_SECONDS} s`);
      try {
        await this.apply();
      } finally {
        await runner.query('SELECT RELEASE_LOCK(?)', [LOCK_NAME]);
      }
    } finally {
      await runner.release();
    }
  }

  private async apply(): Promise<void> {
    const applied = await this.dataSource.runMigrations({ transaction: 'each' });
    if (applied.length)
      this.logger.log(`applied migrations: ${applied.map((m) => m.name).join(', ')}`);
  }
}
