import './config/load-env';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { exitOnBootFailure, loadAppConfigOrExit } from './bootstrap/boot';
import { BootQuietLogger, startupSummary } from './bootstrap/boot-logger';
import { DatabaseSetupError, prepareDatabase } from './bootstrap/prepare-database';
import { ShutdownLog } from './bootstrap/shutdown-log';
import { countUnhandledRejections } from './bootstrap/unhandled-rejections';
import { MetricsService } from './metrics/metrics.service';
import { startTelemetry } from './telemetry/telemetry';
import { WorkerModule } from './worker.module';

/** The queue worker: consumes every queue on Redis, serves no HTTP. Scale it by running more of them. */
async function bootstrap(): Promise<void> {
  const config = loadAppConfigOrExit();
  if (!config.queue.redis) {
    process.stderr.write(
      'REDIS_URL: the worker process needs Redis, REDIS_URL or REDIS_CLUSTER_NODES (without it, `npm start` runs jobs in-process)\n',
    );
    process.exit(1);
  }
  // Before Nest: spans of the first requests and jobs are exported too.
  const telemetryNote = startTelemetry();
  // MySQL down is no reason not to start: lookups answer from the routing table meanwhile.
  const databaseNote = await prepareDatabase(config.database.url).catch((error: unknown) => {
    if (!(error instanceof DatabaseSetupError) || !error.unreachable) throw error;
    return `${error.message}; started anyway: lookups answer from the routing table, their log entries are kept until it answers`;
  });
  const shutdown = new ShutdownLog(
    'running jobs, then closing the queue workers and the database',
    config.app.shutdownGraceMs,
  );
  const app = await NestFactory.createApplicationContext(WorkerModule, {
    bufferLogs: true,
    // A failure while the modules are created reaches exitOnBootFailure: one line, not a stack.
    abortOnError: false,
  });
  const logger = app.get(Logger);
  app.useLogger(new BootQuietLogger(logger));
  shutdown.attach(app, logger);
  countUnhandledRejections(logger, app.get(MetricsService));
  if (databaseNote) logger.log(databaseNote);
  if (telemetryNote) logger.log(telemetryNote);
  logger.log(
    startupSummary(
      config,
      'Worker started: consuming inbound-context-lookup, tool-call, end-call-webhook, maintenance',
    ),
  );
}

bootstrap().catch(exitOnBootFailure);
