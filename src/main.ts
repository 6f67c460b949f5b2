import './bootstrap/load-env';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './bootstrap/configure-app';
import { exitOnBootFailure, validateEnvOrExit } from './bootstrap/boot';
import { loadOpenApiMetadata } from './bootstrap/openapi';

async function bootstrap(): Promise<void> {
  validateEnvOrExit();
  const app = await NestFactory.create(AppModule.register(), { bodyParser: false, bufferLogs: true });
  const logger = app.get(Logger);
  app.useLogger(logger);
  await loadOpenApiMetadata();
  configureApp(app);
  const port = Number(process.env.PORT ?? 3000);
  await app.listen(port);
  const mode = process.env.DATABASE_URL
    ? `MySQL, ${process.env.REDIS_URL ? 'Bull on Redis' : 'in-process jobs'}, role ${process.env.APP_ROLE ?? 'all'}`
    : `embedded mode: SQLite file ${process.env.SQLITE_PATH ?? './data/voice-assistant.sqlite'}, ${process.env.REDIS_URL ? 'Bull on Redis' : 'jobs run in-process'}`;
  logger.log(`Listening on port ${port} (${mode}); Swagger UI at /docs`);
}

bootstrap().catch(exitOnBootFailure);
