import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import type { DataSourceOptions } from 'typeorm';
import { LoggerModule } from 'nestjs-pino';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { ServiceLog } from './common/logging/service-log';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from './contracts/inbound-context-lookup.contract';
import { QUEUES } from './contracts/queues';
import { loadAppConfig, type AppConfig } from './config/app-config';
import { appDataSourceOptions } from './app-data-source';
import { initializeOrDefer } from './database/deferred-connection';
import { MigrationsRunner } from './database/migrations.runner';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsService } from './metrics/metrics.service';
import { QueueCountsSource } from './metrics/queue-counts';
import { jobQueueToken, type JobQueue } from './queue/job-queue';
import { MaintenanceTasksModule } from './queue/maintenance-tasks';
import { QueueModule } from './queue/queue.module';
import { TelemetryShutdown } from './telemetry/telemetry-shutdown';

/** Infrastructure shared by the API and the worker: config, logging, database, queues. */
@Module({})
export class CoreModule {
  /**
   * `databaseMayBeDown`: start even when MySQL does not answer (a worker: its lookups read the
   * routing table, the rest waits for MySQL); the API refuses to start without it.
   */
  static forRoot({
    databaseMayBeDown = false,
  }: { databaseMayBeDown?: boolean } = {}): DynamicModule {
    return {
      module: CoreModule,
      global: true,
      imports: [
        ConfigModule.forRoot({
          isGlobal: true,
          cache: true,
          ignoreEnvFile: true, // loaded into process.env first, by config/load-env
          load: [() => loadAppConfig()],
        }),
        MetricsModule,
        // Nest's logger over the process's pino logger. Its per-request middleware is not mounted
        // (`forRoutes: []`): the access log is ServiceLog's pino-http, mounted by configureApp.
        LoggerModule.forRootAsync({
          imports: [MetricsModule],
          providers: [
            {
              provide: ServiceLog,
              inject: [ConfigService, MetricsService],
              useFactory: (config: ConfigService<AppConfig, true>, metrics: MetricsService) =>
                new ServiceLog({
                  level: config.get('app.logLevel', { infer: true }),
                  format: config.get('app.logFormat', { infer: true }),
                  observe: (method, route, status, seconds) =>
                    metrics.observeHttp(method, route, status, seconds),
                }),
            },
          ],
          inject: [ServiceLog],
          useFactory: (log: ServiceLog) => ({ pinoHttp: { logger: log.root }, forRoutes: [] }),
        }),
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<AppConfig, true>) => ({
            ...appDataSourceOptions(config.get('database', { infer: true })),
            // Applied by MigrationsRunner, under a lock, so concurrent starts do not race.
            migrationsRun: false,
            synchronize: false,
          }),
          ...(databaseMayBeDown && {
            dataSourceFactory: (options?: DataSourceOptions) => initializeOrDefer(options!),
          }),
        }),
        QueueModule.forRoot(),
        MaintenanceTasksModule,
      ],
      providers: [
        MigrationsRunner,
        QueueCountsSource,
        TelemetryShutdown,
        {
          // The producer client over whichever queue QueueModule provides (Bull on Redis or in
          // process): what the call stack uses, here for the operator CLI and tests in process.
          provide: InboundContextLookupClient,
          inject: [jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP)],
          useFactory: (queue: JobQueue<InboundContextLookupJobData, InboundContextLookupResult>) =>
            new InboundContextLookupClient(queue),
        },
      ],
      exports: [InboundContextLookupClient],
    };
  }
}
