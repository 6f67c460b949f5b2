import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { Public } from '../auth/public.decorator';
import { ApiEnvelopeResponse, ApiRoute } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { HealthStatus } from './health-status';
import { HealthDto, LivenessDto } from './health.dto';

/**
 * Three probes. `/health/live`: the process answers (liveness; touches no dependency).
 * `/health`: status of every dependency; 200 while configuration CRUD can be served (`ok`, or
 * `degraded` when only Redis is down), 503 `error` when the database is down.
 * `/health/ready`: 200 only when every dependency this process needs answers (readiness).
 * Both report each MySQL read replica (`database_replica_<n>`); a replica that is down is not a
 * reason to be unready, since the reads meant for replicas then go to the primary.
 */
@ApiTags('health')
@Controller('health')
@Public()
// An empty requirement: no authentication.
@ApiSecurity({})
export class HealthController {
  constructor(private readonly health: HealthStatus) {}

  @Get()
  @ApiOperation({
    operationId: 'getHealth',
    summary:
      'Dependency status: 200 ok or degraded (Redis down), 503 when the database is down (no auth)',
  })
  @ApiEnvelopeResponse(HealthDto)
  @ApiEnvelopeResponse(HealthDto, { status: 503, description: 'The database is down' })
  async check(): Promise<HealthDto> {
    const body = await this.health.status();
    if (body.status === 'error')
      throw new AppException(AppErrorCode.DEPENDENCY_UNAVAILABLE, 'Database unavailable', {
        ...body,
      });
    return body;
  }

  @Get('ready')
  @ResponseMessage('Ready')
  @ApiOperation({
    operationId: 'getReadiness',
    summary:
      'Readiness: 200 when the database and Redis (if configured) answer, 503 otherwise (no auth)',
  })
  @ApiEnvelopeResponse(HealthDto)
  @ApiEnvelopeResponse(HealthDto, { status: 503, description: 'A dependency is down' })
  async ready(): Promise<HealthDto> {
    const body = await this.health.status();
    if (body.status === 'ok') return body;
    const message =
      body.status === 'degraded'
        ? 'Redis unavailable: not ready'
        : 'Database unavailable: not ready';
    throw new AppException(AppErrorCode.DEPENDENCY_UNAVAILABLE, message, { ...body });
  }

  @Get('live')
  @ApiRoute(LivenessDto, 'Alive', {
    operationId: 'getLiveness',
    summary: 'Liveness: 200 whenever the process answers HTTP; checks no dependency (no auth)',
  })
  live(): LivenessDto {
    return { status: 'ok' };
  }
}
