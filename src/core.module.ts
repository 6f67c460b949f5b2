import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import { CONFIG_LOADERS } from './config/configuration';
import { validateEnv } from './config/env.validation';
import { dataSourceOptions } from './database/data-source-options';
import { MigrationsRunner } from './database/migrations.runner';
import { QueueModule } from './queue/queue.module';

/** Header names whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Infrastructure shared by the API and the worker: config, logging, database, queues. */
@Module({})
export class CoreModule {
  static forRoot(): DynamicModule {
    return {
      module: CoreModule,
      global: true,
      imports: [
        ConfigModule.forRoot({ isGlobal: true, cache: true, validate: validateEnv, load: CONFIG_LOADERS }),
        LoggerModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService) => ({
            pinoHttp: {
              level: config.get<string>('app.logLevel'),
              redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
              genReqId: (req: IncomingMessage, res: ServerResponse) => {
                const sent = req.headers['x-request-id'];
                const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
                res.setHeader('X-Request-Id', id);
                return id;
              },
              autoLogging: { ignore: (req: IncomingMessage) => req.url === '/health' },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({ id: req.id, method: req.method, url: req.url }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
            },
          }),
        }),
        TypeOrmModule.forRootAsync({
          useFactory: () => ({
            ...dataSourceOptions(),
            // Applied by MigrationsRunner, under a lock, so concurrent starts do not race.
            migrationsRun: false,
            synchronize: false,
          }),
        }),
        QueueModule.forRoot(),
      ],
      providers: [MigrationsRunner],
    };
  }
}
