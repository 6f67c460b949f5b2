import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { TypeOrmHealthIndicator, type HealthIndicatorResult } from '@nestjs/terminus';
import { Public } from '../auth/public.decorator';
import { ApiEnvelopeResponse } from '../common/envelope/api-envelope.decorator';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { HealthDto } from './health.dto';
import { RedisHealthIndicator } from './redis.health';

@ApiTags('health')
@Controller('health')
export class HealthController {
  constructor(
    private readonly db: TypeOrmHealthIndicator,
    private readonly redis: RedisHealthIndicator,
  ) {}

  /**
   * 200 when the database and the queue backend answer. 503 otherwise: `degraded` when only Redis
   * is down (configuration CRUD still works, jobs do not), `error` when the database is down.
   */
  @Get()
  @Public()
  @ApiOperation({ summary: 'Liveness and dependency status (no auth)' })
  @ApiEnvelopeResponse(HealthDto)
  @ApiEnvelopeResponse(HealthDto, { status: 503, description: 'A dependency is down' })
  async check(): Promise<HealthDto> {
    const [database, redis] = await Promise.all([
      this.db.pingCheck('database', { timeout: 1500 }).catch((e: unknown) => downResult('database', e)),
      this.redis.check('redis'),
    ]);
    const details = { ...database, ...redis } as Record<string, { status: string }>;
    const dbUp = details.database?.status === 'up';
    const redisUp = details.redis?.status === 'up';
    const status = dbUp && redisUp ? 'ok' : dbUp ? 'degraded' : 'error';
    const body: HealthDto = { status, details };
    if (status === 'ok') return body;
    const message = status === 'degraded' ? 'Redis unavailable: service degraded' : 'Database unavailable';
    throw new AppException(AppErrorCode.DEPENDENCY_UNAVAILABLE, message, { ...body });
  }
}

function downResult(key: string, error: unknown): HealthIndicatorResult {
  return { [key]: { status: 'down', message: error instanceof Error ? error.message : 'unreachable' } };
}
