import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags, ApiBody } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { EXAMPLE_ASSISTANT_ID } from '../common/validation/example-ids';
import { ETagged } from '../common/etag/etag.decorator';
import { parseIsoTimestamp } from '../common/time/iso';
import { policyCheckOf } from '../inbound-policy/evaluate-policy';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AssignInboundDto, UpdateInboundDto } from './dto/assign-inbound.dto';
import { InboundDeletedDto, InboundListDto, InboundResponseDto } from './dto/inbound-response.dto';
import { PolicyCheckDto, PolicyCheckResultDto } from './dto/policy-check.dto';
import { InboundMappingService } from './inbound-mapping.service';

/**
 * Request examples. `assistant_id` must name one of your assistants: replace the example's with
 * the `assistant_id` that `POST /assistant/create` answered.
 */
const ASSIGN_EXAMPLES = {
  working_copy: {
    summary: 'A number answered by the working copy of an assistant',
    value: {
      assistant_id: EXAMPLE_ASSISTANT_ID,
      service: 'exotel',
      inbound_config: { phone_number: '+91 80 1234 5678' },
    },
  },
};

const UPDATE_INBOUND_EXAMPLES = {
  pause: { summary: 'Stop routing calls to this number', value: { is_active: false } },
};

const POLICY_CHECK_EXAMPLES = {
  caller_at: {
    summary: 'Would a call from this caller get through on Christmas Eve, 18:30 in Berlin?',
    value: { caller_number: '+4930123456', at: '2026-12-24T18:30:00+01:00' },
  },
};

@ApiTags('inbound')
@ApiBearerAuth()
@Controller('inbound')
export class InboundMappingController {
  constructor(private readonly mappings: InboundMappingService) {}

  @Post('assign')
  @HttpCode(200)
  @ApiRoute(InboundResponseDto, 'Inbound number assigned', {
    operationId: 'assignInboundNumber',
    summary: 'Route an inbound number to an assistant, optionally with a context strategy',
    description:
      '`assistant_id` names one of your assistants. The example holds a placeholder that no install ' +
      'has (answered 404): create the assistant first with `POST /assistant/create` and put the ' +
      '`assistant_id` it answers here.',
    errors: [404, 409, 422],
  })
  @ApiBody({ type: AssignInboundDto, examples: ASSIGN_EXAMPLES })
  assign(
    @CurrentUser() user: AuthUser,
    @Body() dto: AssignInboundDto,
  ): Promise<InboundResponseDto> {
    return this.mappings.assign(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(InboundListDto, 'Inbound mappings retrieved', {
    operationId: 'listInboundMappings',
    summary: 'List your inbound mappings, newest first',
  })
  list(@CurrentUser() user: AuthUser, @Query() query: PaginationQueryDto): Promise<InboundListDto> {
    return this.mappings.list(user.user_id, query);
  }

  @Get('details/:inbound_id')
  @ETagged('details')
  @ApiRoute(InboundResponseDto, 'Inbound mapping retrieved', {
    operationId: 'getInboundMapping',
    summary: 'One inbound mapping',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('inbound_id') inboundId: string,
  ): Promise<InboundResponseDto> {
    return this.mappings.details(user.user_id, inboundId);
  }

  @Patch('update/:inbound_id')
  @ETagged('update')
  @ApiRoute(InboundResponseDto, 'Inbound mapping updated', {
    operationId: 'updateInboundMapping',
    summary: 'Update a mapping; `null` detaches the assistant or the strategy',
    errors: [409, 422],
  })
  @ApiBody({ type: UpdateInboundDto, examples: UPDATE_INBOUND_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('inbound_id') inboundId: string,
    @Body() dto: UpdateInboundDto,
  ): Promise<InboundResponseDto> {
    return this.mappings.update(user.user_id, inboundId, dto);
  }

  @Post('policy-check/:inbound_id')
  @HttpCode(200)
  @ApiRoute(PolicyCheckResultDto, 'Inbound policy checked', {
    operationId: 'checkInboundPolicy',
    summary: "What the number's inbound policy decides for a caller at a moment (no slot taken)",
  })
  @ApiBody({ type: PolicyCheckDto, examples: POLICY_CHECK_EXAMPLES })
  async policyCheck(
    @CurrentUser() user: AuthUser,
    @UuidParam('inbound_id') inboundId: string,
    @Body() dto: PolicyCheckDto,
  ): Promise<PolicyCheckResultDto> {
    const { policy } = await this.mappings.findOwned(user.user_id, inboundId);
    const now = dto.at ? parseIsoTimestamp(dto.at)!.getTime() : Date.now();
    return policyCheckOf(policy, { now, caller: dto.caller_number });
  }

  @Delete('delete/:inbound_id')
  @ETagged('delete')
  @ApiRoute(InboundDeletedDto, 'Inbound mapping deleted', {
    operationId: 'deleteInboundMapping',
    summary: 'Delete a mapping; its number is free again',
  })
  delete(
    @CurrentUser() user: AuthUser,
    @UuidParam('inbound_id') inboundId: string,
  ): Promise<InboundDeletedDto> {
    return this.mappings.delete(user.user_id, inboundId);
  }
}
