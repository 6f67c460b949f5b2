import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { CheckService } from './check.service';
import { CheckDto, CheckListDto, RunCheckDto } from './dto/check.dto';

const RUN_EXAMPLES = {
  working_copy: { summary: 'The working copy', value: { version: null } },
};

@ApiTags('test-case')
@ApiBearerAuth()
@Controller('assistant')
export class CheckController {
  constructor(private readonly checks: CheckService) {}

  @Post('check/:assistant_id')
  @HttpCode(200)
  @ApiRoute(CheckDto, 'Check run', {
    operationId: 'runAssistantCheck',
    summary: 'Run every test case of the assistant against one version; nothing is sent',
    description:
      'Each case plays the lookup of its call against its `context_mock` (the strategy of the mapping of ' +
      "`call.inbound_number`, else of the assistant's newest mapping with a strategy; a mock slower than the " +
      "strategy's timeout is a timeout, and the fallback applies) and builds each tool mock's request without " +
      'sending it. The check is kept: a production number takes only a version whose newest check passed.',
    response: 'Check run',
  })
  @ApiBody({ type: RunCheckDto, examples: RUN_EXAMPLES })
  run(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: RunCheckDto,
  ): Promise<CheckDto> {
    return this.checks.run(user.user_id, assistantId, dto.version);
  }

  @Get('checks/:assistant_id')
  @ApiRoute(CheckListDto, 'Checks retrieved', {
    operationId: 'listAssistantChecks',
    summary: "An assistant's checks, newest first",
  })
  list(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<CheckListDto> {
    return this.checks.list(user.user_id, assistantId, query);
  }
}
