import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Module, type DynamicModule } from '@nestjs/common';
import { ConfigModule, ConfigService } from '@nestjs/config';
import { TypeOrmModule } from '@nestjs/typeorm';
import { LoggerModule } from 'nestjs-pino';
import pino from 'pino';
import type { Options as PinoHttpOptions } from 'pino-http';
import { loadAppConfig, type AppConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source-options';
import { MigrationsRunner } from './database/migrations.runner';
import { MetricsModule } from './metrics/metrics.module';
import { MetricsService } from './metrics/metrics.service';
import { QueueCountsSource } from './metrics/queue-counts';
import { QueueModule } from './queue/queue.module';

/** Header names whose values never reach a log line. */
export const REDACTED_LOG_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** `LOG_FORMAT=pretty`: one readable line per entry, local time, the Nest context first. */
const PRETTY_LOGS = {
  target: 'pino-pretty',
  options: {
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname,context',
    messageFormat: '{if context}[{context}] {end}{msg}',
    singleLine: true,
  },
};

/** When the access log first saw the request (performance.now()), for the duration histogram. */
const STARTED = Symbol('startedAt');

type TimedRequest = IncomingMessage & {
  [STARTED]?: number;
  baseUrl?: string;
  route?: { path?: unknown };
};

/** The route template Express matched (`/assistant/details/:id`), never the raw URL (unbounded labels). */
export function routeTemplate(req: TimedRequest): string {
  const path = req.route?.path;
  return typeof path === 'string' ? `${req.baseUrl ?? ''}${path}` : '(unmatched)';
}

/** Infrastructure shared by the API and the worker: config, logging, database, queues. */
@Module({})
export class CoreModule {
  static forRoot(): DynamicModule {
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
        LoggerModule.forRootAsync({
          imports: [MetricsModule],
          inject: [ConfigService, MetricsService],
          useFactory: (config: ConfigService<AppConfig, true>, metrics: MetricsService) => {
            const options: PinoHttpOptions = {
              level: config.get('app.logLevel', { infer: true }),
              redact: { paths: REDACTED_LOG_PATHS, censor: '[redacted]' },
              genReqId: (req: TimedRequest, res: ServerResponse) => {
                req[STARTED] = performance.now();
                const sent = req.headers['x-request-id'];
                const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
                res.setHeader('X-Request-Id', id);
                return id;
              },
              // Called once per finished request, whatever the log level: the one place that
              // also records the request in the duration histogram.
              customLogLevel: (req: TimedRequest, res: ServerResponse) => {
                const started = req[STARTED];
                if (started !== undefined)
                  metrics.observeHttp(
                    req.method ?? 'GET',
                    routeTemplate(req),
                    res.statusCode,
                    (performance.now() - started) / 1000,
                  );
                return 'info';
              },
              autoLogging: {
                ignore: (req: IncomingMessage) => req.url?.startsWith('/health') === true,
              },
              serializers: {
                req: (req: { id: string; method: string; url: string }) => ({
                  id: req.id,
                  method: req.method,
                  url: req.url,
                }),
                res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
              },
            };
            // JSON lines leave through an asynchronous stdout writer: a request does not wait for
            // its access-log write, lines written while one is in flight go out in one write, and
            // pino flushes what is pending when the process exits.
            return {
              pinoHttp:
                config.get('app.logFormat', { infer: true }) === 'pretty'
                  ? { ...options, transport: PRETTY_LOGS }
                  : [options, pino.destination({ dest: 1, sync: false })],
            };
          },
        }),
        TypeOrmModule.forRootAsync({
          inject: [ConfigService],
          useFactory: (config: ConfigService<AppConfig, true>) => ({
            ...dataSourceOptions(config.get('database', { infer: true })),
            // Applied by MigrationsRunner, under a lock, so concurrent starts do not race.
            migrationsRun: false,
            synchronize: false,
          }),
        }),
        QueueModule.forRoot(),
      ],
      providers: [MigrationsRunner, QueueCountsSource],
    };
  }
}
