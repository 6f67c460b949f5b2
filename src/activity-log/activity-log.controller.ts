import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { AppException } from '../common/errors/app.exception';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { ActivityLogService } from './activity-log.service';
import { LogHealthDto, LogsPageDto, LogTimelineDto } from './dto/log-entry.dto';
import { LogHealthQueryDto, LogsQueryDto, LogTimelineParamsDto } from './dto/logs-query.dto';
import { LogHealthService } from './log-health.service';

@ApiTags('logs')
@ApiBearerAuth()
@Controller('logs')
export class ActivityLogController {
  constructor(
    private readonly activityLog: ActivityLogService,
    private readonly logHealth: LogHealthService,
  ) {}

  // The caller's activity log (tool calls, end-call webhook deliveries, inbound context lookups), newest first.
  @Get()
  @ApiRoute(LogsPageDto, 'Logs retrieved', {
    operationId: 'listLogs',
    summary: 'List activity log entries',
    response: 'One page of entries',
  })
  list(@CurrentUser() user: AuthUser, @Query() query: LogsQueryDto): Promise<LogsPageDto> {
    return this.activityLog.list(user.user_id, query);
  }

  // Per URL origin the caller's requests went to (default: the last 24 hours): attempts, errors and
  // their classes, p50/p95 latency, last success and error; most errors first. Answered from
  // hourly counters kept with the entries, so the range is widened to whole UTC hours.
  @Get('health')
  @ApiRoute(LogHealthDto, 'Endpoint health retrieved', {
    operationId: 'getEndpointHealth',
    summary: 'Health of your endpoints',
    response: 'One item per URL origin, most errors first',
  })
  health(@CurrentUser() user: AuthUser, @Query() query: LogHealthQueryDto): Promise<LogHealthDto> {
    return this.logHealth.health(user.user_id, query);
  }

  // Every entry of one call (its real-time room), oldest first: lookup, tool calls, end-call deliveries.
  @Get('timeline/:room_name')
  @ApiRoute(LogTimelineDto, 'Timeline retrieved', {
    operationId: 'getCallTimeline',
    summary: 'Timeline of one call',
    response: 'The call and its entries, oldest first',
  })
  async timeline(
    @CurrentUser() user: AuthUser,
    @Param() { room_name }: LogTimelineParamsDto,
  ): Promise<LogTimelineDto> {
    const timeline = await this.activityLog.timeline(user.user_id, room_name);
    if (!timeline) throw AppException.notFound('Call');
    return timeline;
  }
}
