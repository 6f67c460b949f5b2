import './bootstrap/load-env';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { exitOnBootFailure, validateEnvOrExit } from './bootstrap/boot';
import { BootQuietLogger, startupSummary } from './bootstrap/boot-logger';
import { prepareDatabase } from './bootstrap/prepare-database';
import { ShutdownLog } from './bootstrap/shutdown-log';
import { loadOpenApiMetadata } from './bootstrap/openapi';

async function bootstrap(): Promise<void> {
  validateEnvOrExit();
  const databaseNote = await prepareDatabase(process.env);
  const role = process.env.REDIS_URL ? (process.env.APP_ROLE ?? 'all') : 'all';
  const shutdown = new ShutdownLog(
    role === 'api'
      ? 'in-flight HTTP requests, then closing the queues and the database'
      : 'in-flight HTTP requests and running jobs, then closing the queue workers and the database',
  );
  const app = await NestFactory.create(AppModule.register(), {
    bodyParser: false,
    bufferLogs: true,
  });
  const logger = app.get(Logger);
  app.useLogger(new BootQuietLogger(logger));
  shutdown.attach(app, logger);
  await loadOpenApiMetadata();
  configureApp(app);
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  if (databaseNote) logger.log(databaseNote);
  logger.log(
    startupSummary(
      process.env,
      `API listening on http://localhost:${port} (Swagger UI at /docs), role ${role}`,
    ),
  );
}

bootstrap().catch(exitOnBootFailure);
