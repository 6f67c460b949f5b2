import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiEnvelopeErrors, ApiEnvelopeResponse } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { ActivityLogService } from './activity-log.service';
import { LogsPageDto } from './dto/log-entry.dto';
import { LogsQueryDto } from './dto/logs-query.dto';

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
}
