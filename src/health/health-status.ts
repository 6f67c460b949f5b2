import { Injectable, Optional, type OnModuleInit } from '@nestjs/common';
import { TypeOrmHealthIndicator, type HealthIndicatorResult } from '@nestjs/terminus';
import { MetricsService } from '../metrics/metrics.service';
import type { ReadinessReport } from '../metrics/readiness-gauges';
import type { HealthDto } from './health.dto';
import { NOT_USED, RedisHealthIndicator } from './redis.health';
import { ReplicaHealth } from './replica.health';

/**
 * The status of every dependency, as `/health` and `/health/ready` answer it: `ok` when the
 * database and Redis answer, `degraded` when only Redis is down, `error` when the database is.
 * Each computation also sets the readiness gauges, which a scrape refreshes through `status()`.
 */
@Injectable()
export class HealthStatus implements OnModuleInit {
  constructor(
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
    private readonly replicas: ReplicaHealth,
    @Optional() private readonly metrics?: MetricsService,
  ) {}

  onModuleInit(): void {
    this.metrics?.readiness.setSource(async () => readinessOf(await this.compute()));
  }

  async status(): Promise<HealthDto> {
    const body = await this.compute();
    this.metrics?.readiness.report(readinessOf(body));
    return body;
  }

  private async compute(): Promise<HealthDto> {
    const [database, redis, replicas] = await Promise.all([
      this.db
        .pingCheck('database', { timeout: 1500 })
        .catch((e: unknown) => downResult('database', e)),
      this.redis.check('redis'),
      this.replicas.check(),
    ]);
    const details = { ...database, ...redis, ...replicas } as Record<string, { status: string }>;
    const dbUp = details.database?.status === 'up';
    const redisUp = details.redis?.status === 'up' || details.redis?.status === NOT_USED;
    return { status: dbUp && redisUp ? 'ok' : dbUp ? 'degraded' : 'error', details };
  }
}

/**
 * Ready exactly when `/health/ready` answers 200; each reported dependency up or not (one the
 * process does not use, Redis in embedded mode, is not reported).
 */
export function readinessOf(body: HealthDto): ReadinessReport {
  const dependencies: Record<string, boolean> = {};
  for (const [name, detail] of Object.entries(body.details))
    if (detail.status !== NOT_USED) dependencies[name] = detail.status === 'up';
  return { ready: body.status === 'ok', dependencies };
}

function downResult(key: string, error: unknown): HealthIndicatorResult {
  return {
    [key]: { status: 'down', message: error instanceof Error ? error.message : 'unreachable' },
  };
}
