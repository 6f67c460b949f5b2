import type { LoggerService } from '@nestjs/common';
import { loadAppConfig } from '../config/app-config';
import { BootQuietLogger, startupSummary, withoutPassword } from './boot-logger';

describe(BootQuietLogger.name, () => {
  it("moves Nest's start-up lines to debug and passes everything else", () => {
    const calls: string[] = [];
    const inner: LoggerService = {
      log: (m: string, c: string) => calls.push(`log ${c}: ${m}`),
      debug: (m: string, c: string) => calls.push(`debug ${c}: ${m}`),
      warn: (m: string, c: string) => calls.push(`warn ${c}: ${m}`),
      error: (m: string, c: string) => calls.push(`error ${c}: ${m}`),
    };
    const logger = new BootQuietLogger(inner);
    logger.log('AppModule dependencies initialized', 'InstanceLoader');
    logger.log('Mapped {/health, GET} route', 'RouterExplorer');
    logger.log('applied migrations: X', 'MigrationsRunner');
    logger.warn('rate-limit storage unavailable', 'RateLimit');
    expect(calls).toEqual([
      'debug InstanceLoader: AppModule dependencies initialized',
      'debug RouterExplorer: Mapped {/health, GET} route',
      'log MigrationsRunner: applied migrations: X',
      'warn RateLimit: rate-limit storage unavailable',
    ]);
  });
});

describe(startupSummary.name, () => {
  it('names the database and queues without a password', () => {
    expect(
      startupSummary(
        loadAppConfig({
          DATABASE_URL: 'mysql://app:s3cret@db:3306/vac',
          REDIS_URL: 'redis://:pw@redis:6379',
        }),
        'API listening on port 3000, role api',
      ),
    ).toBe(
      'API listening on port 3000, role api; database: MySQL mysql://app:****@db:3306/vac; queues: Bull on Redis redis://:****@redis:6379 (prefix bull)',
    );
    expect(startupSummary(loadAppConfig({}), 'x')).toBe(
      'x; database: SQLite ./data/voice-assistant.sqlite; queues: jobs in-process',
    );
    expect(withoutPassword('not a url')).toBe('(unparseable URL)');
  });
});
