import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiOperation, ApiTags } from '@nestjs/swagger';
import { LogEntryDto } from '../activity-log/dto/log-entry.dto';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ApiEnvelopeErrors, ApiEnvelopeResponse } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { ReplayParamsDto } from './dto/replay-params.dto';
import { ReplayService } from './replay.service';

@ApiTags('logs')
@ApiBearerAuth()
@Controller('logs')
export class ReplayController {
  constructor(private readonly replays: ReplayService) {}

  /**
   * Sends an end-call delivery or a webhook tool call again, once, now: to the current URL with the
   * current headers, with the original body and `webhook-id` (a fresh timestamp and signature). The
   * answer is the new entry, whose `replay_of` names the original. Lookups and static tools: 400.
   */
  @Post('replay/:log_id')
  @HttpCode(200)
  @ApiOperation({ operationId: 'replayLogEntry', summary: 'Send a logged request again' })
  @ResponseMessage('Request replayed')
  @ApiEnvelopeResponse(LogEntryDto, { description: 'The entry of the replayed request' })
  @ApiEnvelopeErrors(400, 404, 409)
  replay(
    @CurrentUser() user: AuthUser,
    @Param() { log_id }: ReplayParamsDto,
  ): Promise<LogEntryDto> {
    return this.replays.replay(user.user_id, log_id);
  }
}
