import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiEnvelopeErrors, ApiEnvelopeResponse } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { AppException } from '../common/errors/app.exception';
import { ActivityLogService } from './activity-log.service';
import { LogsPageDto, LogTimelineDto } from './dto/log-entry.dto';
import { LogsQueryDto, LogTimelineParamsDto } from './dto/logs-query.dto';

@ApiTags('logs')
@ApiBearerAuth()
@Controller('logs')
export class ActivityLogController {
  constructor(private readonly activityLog: ActivityLogService) {}

  /** The caller's activity log (tool calls, end-call webhook deliveries, inbound context lookups), newest first. */
  @Get()
  @ApiOperation({ operationId: 'listLogs', summary: 'List activity log entries' })
  @ResponseMessage('Logs retrieved')
  @ApiEnvelopeResponse(LogsPageDto, { description: 'One page of entries' })
  @ApiEnvelopeErrors(400)
  list(@CurrentUser() user: AuthUser, @Query() query: LogsQueryDto): Promise<LogsPageDto> {
    return this.activityLog.list(user.user_id, query);
  }

  /** Every entry of one call (its real-time room), oldest first: lookup, tool calls, end-call deliveries. */
  @Get('timeline/:room_name')
  @ApiOperation({ operationId: 'getCallTimeline', summary: 'Timeline of one call' })
  @ResponseMessage('Timeline retrieved')
  @ApiEnvelopeResponse(LogTimelineDto, { description: 'The call and its entries, oldest first' })
  @ApiEnvelopeErrors(400, 404)
  async timeline(
    @CurrentUser() user: AuthUser,
    @Param() { room_name }: LogTimelineParamsDto,
  ): Promise<LogTimelineDto> {
    const timeline = await this.activityLog.timeline(user.user_id, room_name);
    if (!timeline) throw AppException.notFound('Call');
    return timeline;
  }
}
