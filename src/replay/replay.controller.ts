import { Controller, HttpCode, Param, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { LogEntryDto } from '../activity-log/dto/log-entry.dto';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { RequestTimeout } from '../common/timeout/request-timeout';
import { END_CALL_TIMEOUT_MS } from '../assistant/end-call-webhook.service';
import { MAX_WEBHOOK_TIMEOUT_SECONDS } from '../contracts/limits';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { ReplayParamsDto } from './dto/replay-params.dto';
import { ReplayService } from './replay.service';

/** Room for the reads before the request and the entry's write after it. */
const REPLAY_MARGIN_MS = 10_000;
/**
 * A replay waits for its request: the budget covers the longest a tool's webhook (or an end-call
 * delivery) may take, plus the margin, so the client is not told 503 while the request is still
 * on its way.
 */
export const REPLAY_BUDGET_MS =
  Math.max(MAX_WEBHOOK_TIMEOUT_SECONDS * 1000, END_CALL_TIMEOUT_MS) + REPLAY_MARGIN_MS;

@ApiTags('logs')
@ApiBearerAuth()
@Controller('logs')
export class ReplayController {
  constructor(private readonly replays: ReplayService) {}

  // Sends an end-call delivery or a webhook tool call again, once, now: to the current URL with the
  // current headers, with the original body and `webhook-id` (a fresh timestamp and signature). The
  // answer is the new entry, whose `replay_of` names the original. Lookups and static tools: 400.
  @Post('replay/:log_id')
  @HttpCode(200)
  @RequestTimeout(REPLAY_BUDGET_MS)
  @ApiRoute(LogEntryDto, 'Request replayed', {
    operationId: 'replayLogEntry',
    summary: 'Send a logged request again',
    response: 'The entry of the replayed request',
    errors: [409],
  })
  replay(
    @CurrentUser() user: AuthUser,
    @Param() { log_id }: ReplayParamsDto,
  ): Promise<LogEntryDto> {
    return this.replays.replay(user.user_id, log_id);
  }
}
