import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { RequestTimeout } from '../common/timeout/request-timeout';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { TestStrategyDto, TestStrategyResultDto } from './dto/test-strategy.dto';
import { StrategyDryRunService } from './strategy-dry-run.service';

/** A request example Swagger UI and generated clients send as it is (no id of something not yet made). */
const TEST_STRATEGY_EXAMPLES = {
  caller: {
    summary: 'A call from this number',
    value: { caller_number: '+919900011122', inbound_number: '918012345678' },
  },
};

/**
 * The strategy's dry run, beside its CRUD routes under `/inbound_context_strategy` (the strategies
 * themselves belong to inbound-context; the run is the lookup's plan, webhook call and render).
 */
@ApiTags('inbound context strategy')
@ApiBearerAuth()
@Controller('inbound_context_strategy')
export class StrategyTestController {
  constructor(private readonly dryRuns: StrategyDryRunService) {}

  @Post('test/:strategy_id')
  @HttpCode(200)
  // The webhook may take up to the longest strategy timeout (10 s).
  @RequestTimeout(15_000)
  @ApiRoute(TestStrategyResultDto, 'Inbound context strategy tested', {
    operationId: 'testStrategy',
    summary: 'Dry run: call the webhook now with a sample payload',
    description:
      'Performs the real webhook call (body carries `dry_run: true`) and returns the outcome, the context keys and the prompt rendered for the assistant. No activity-log entry is written.',
    errors: [422],
  })
  @ApiBody({ type: TestStrategyDto, examples: TEST_STRATEGY_EXAMPLES })
  test(
    @CurrentUser() user: AuthUser,
    @UuidParam('strategy_id') strategyId: string,
    @Body() dto: TestStrategyDto,
  ): Promise<TestStrategyResultDto> {
    return this.dryRuns.dryRun(user.user_id, strategyId, dto);
  }
}
