import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiBody } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ETagged } from '../common/etag/etag.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { CreateStrategyDto } from './dto/create-strategy.dto';
import {
  StrategyDeletedDto,
  StrategyListDto,
  StrategyResponseDto,
} from './dto/strategy-response.dto';
import { UpdateStrategyDto } from './dto/update-strategy.dto';
import { InboundContextStrategyService } from './inbound-context-strategy.service';

/**
 * Request examples Swagger UI and generated clients send as they are: every one is accepted in a
 * fresh flow (no id of something that does not exist yet).
 */
const CREATE_STRATEGY_EXAMPLES = {
  webhook: {
    summary: 'Webhook with a fallback context',
    value: {
      strategy_name: 'CRM lookup',
      strategy_type: 'webhook',
      strategy_config: {
        url: 'https://crm.example.com/voice/context',
        headers: { 'X-Tenant': 'acme' },
        timeout_seconds: 2,
        fallback_context: { name: 'there', tier: 'standard' },
      },
    },
  },
};

const UPDATE_STRATEGY_EXAMPLES = {
  timeout: {
    summary: 'Rename and allow a longer call',
    value: { strategy_name: 'CRM lookup (EU)', strategy_config: { timeout_seconds: 3 } },
  },
};

@ApiTags('inbound context strategy')
@ApiBearerAuth()
@Controller('inbound_context_strategy')
export class InboundContextStrategyController {
  constructor(private readonly strategies: InboundContextStrategyService) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute(StrategyResponseDto, 'Inbound context strategy created', {
    operationId: 'createStrategy',
    summary: 'Create a webhook strategy that fetches caller context before an inbound call starts',
    response: 'The created strategy, sensitive header values masked',
    errors: [422],
  })
  @ApiBody({ type: CreateStrategyDto, examples: CREATE_STRATEGY_EXAMPLES })
  create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateStrategyDto,
  ): Promise<StrategyResponseDto> {
    return this.strategies.create(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(StrategyListDto, 'Inbound context strategies retrieved', {
    operationId: 'listStrategies',
    summary: 'List your strategies, newest first',
  })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: PaginationQueryDto,
  ): Promise<StrategyListDto> {
    return this.strategies.list(user.user_id, query);
  }

  @Get('details/:strategy_id')
  @ETagged('details')
  @ApiRoute(StrategyResponseDto, 'Inbound context strategy retrieved', {
    operationId: 'getStrategy',
    summary: 'One strategy',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('strategy_id') strategyId: string,
  ): Promise<StrategyResponseDto> {
    return this.strategies.details(user.user_id, strategyId);
  }

  @Patch('update/:strategy_id')
  @ETagged('update')
  @ApiRoute(StrategyResponseDto, 'Inbound context strategy updated', {
    operationId: 'updateStrategy',
    summary: 'Update a strategy',
    description:
      '`strategy_config.headers` merge key by key: a value replaces, `null` deletes the header, `****` keeps the stored value. Other fields replace.',
    errors: [422],
  })
  @ApiBody({ type: UpdateStrategyDto, examples: UPDATE_STRATEGY_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('strategy_id') strategyId: string,
    @Body() dto: UpdateStrategyDto,
  ): Promise<StrategyResponseDto> {
    return this.strategies.update(user.user_id, strategyId, dto);
  }

  @Delete('delete/:strategy_id')
  @ETagged('delete')
  @ApiRoute(StrategyDeletedDto, 'Inbound context strategy deleted', {
    operationId: 'deleteStrategy',
    summary: 'Delete a strategy; mappings that used it keep routing, without a lookup',
  })
  delete(
    @CurrentUser() user: AuthUser,
    @UuidParam('strategy_id') strategyId: string,
  ): Promise<StrategyDeletedDto> {
    return this.strategies.delete(user.user_id, strategyId);
  }
}
