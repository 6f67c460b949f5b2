import './config/load-env';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { exitOnBootFailure, loadAppConfigOrExit } from './bootstrap/boot';
import { BootQuietLogger, startupSummary } from './bootstrap/boot-logger';
import { prepareDatabase } from './bootstrap/prepare-database';
import { ShutdownLog } from './bootstrap/shutdown-log';
import { countUnhandledRejections } from './bootstrap/unhandled-rejections';
import { MetricsService } from './metrics/metrics.service';
import { startTelemetry } from './telemetry/telemetry';

async function bootstrap(): Promise<void> {
  const config = loadAppConfigOrExit();
  // Before Nest: spans of the first requests and jobs are exported too.
  const telemetryNote = startTelemetry();
  const databaseNote = await prepareDatabase(config.database.url);
  const { role, port } = config.app;
  const shutdown = new ShutdownLog(
    role === 'api'
      ? 'in-flight HTTP requests, then closing the queues and the database'
      : 'in-flight HTTP requests and running jobs, then closing the queue workers and the database',
    config.app.shutdownGraceMs,
  );
  const app = await NestFactory.create(AppModule.register(), {
    bodyParser: false,
    bufferLogs: true,
    // A failure while the modules are created reaches exitOnBootFailure: one line, not a stack.
    abortOnError: false,
  });
  const logger = app.get(Logger);
  app.useLogger(new BootQuietLogger(logger));
  shutdown.attach(app, logger);
  countUnhandledRejections(logger, app.get(MetricsService));
  configureApp(app);
  await app.listen(port);
  if (databaseNote) logger.log(databaseNote);
  if (telemetryNote) logger.log(telemetryNote);
  logger.log(
    startupSummary(
      config,
      `API listening on http://localhost:${port} (Swagger UI at /docs), role ${role}`,
    ),
  );
}

bootstrap().catch(exitOnBootFailure);
