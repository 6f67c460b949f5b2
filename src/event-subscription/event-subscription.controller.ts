import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import {
  CreateEventSubscriptionDto,
  UpdateEventSubscriptionDto,
} from './dto/event-subscription.dto';
import {
  CreatedEventSubscriptionDto,
  EventSubscriptionDeletedDto,
  EventSubscriptionDto,
  EventSubscriptionListDto,
  EventSubscriptionTestDto,
} from './dto/event-subscription-response.dto';
import { EventSubscriptionService } from './event-subscription.service';

const CREATE_EXAMPLES = {
  config_and_health: {
    summary: 'Configuration changes and endpoint health',
    value: {
      url: 'https://example.com/hooks/voice-events',
      events: ['config.changed', 'endpoint.unhealthy', 'endpoint.recovered'],
      description: 'Ops channel',
    },
  },
};

const UPDATE_EXAMPLES = {
  add_rollout: {
    summary: 'Also hear of reverted splits and failed checks',
    value: {
      events: [
        'config.changed',
        'endpoint.unhealthy',
        'endpoint.recovered',
        'split.reverted',
        'check.failed',
      ],
    },
  },
};

const EVENTS_DESCRIPTION =
  'Each event is POSTed as `{id, type, timestamp, data}`, signed (Standard Webhooks: `webhook-id`, ' +
  "`webhook-timestamp`, `webhook-signature`) with the subscription's own secret, retried like " +
  'end-call deliveries, and each attempt is an `event_delivery` entry of `GET /logs` (replayable).';

@ApiTags('event-subscription')
@ApiBearerAuth()
@Controller('event-subscription')
export class EventSubscriptionController {
  constructor(private readonly subscriptions: EventSubscriptionService) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute(CreatedEventSubscriptionDto, 'Event subscription created', {
    operationId: 'createEventSubscription',
    summary: 'Subscribe a URL to events',
    description:
      `${EVENTS_DESCRIPTION} The answer carries the signing secret (\`whsec_...\`); no other ` +
      'read shows it again.',
    response: 'Event subscription created',
    errors: [409],
  })
  @ApiBody({ type: CreateEventSubscriptionDto, examples: CREATE_EXAMPLES })
  create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateEventSubscriptionDto,
  ): Promise<CreatedEventSubscriptionDto> {
    return this.subscriptions.create(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(EventSubscriptionListDto, 'Event subscriptions retrieved', {
    operationId: 'listEventSubscriptions',
    summary: 'Your event subscriptions, newest first',
  })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: PaginationQueryDto,
  ): Promise<EventSubscriptionListDto> {
    return this.subscriptions.list(user.user_id, query);
  }

  @Get('details/:subscription_id')
  @ApiRoute(EventSubscriptionDto, 'Event subscription retrieved', {
    operationId: 'getEventSubscription',
    summary: 'An event subscription (no secret)',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('subscription_id') subscriptionId: string,
  ): Promise<EventSubscriptionDto> {
    return this.subscriptions.details(user.user_id, subscriptionId);
  }

  @Patch('update/:subscription_id')
  @ApiRoute(EventSubscriptionDto, 'Event subscription updated', {
    operationId: 'updateEventSubscription',
    summary: 'Update an event subscription',
    description:
      'A field sent replaces the stored one; `description: null` clears it. The secret stays.',
    response: 'Event subscription updated',
  })
  @ApiBody({ type: UpdateEventSubscriptionDto, examples: UPDATE_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('subscription_id') subscriptionId: string,
    @Body() dto: UpdateEventSubscriptionDto,
  ): Promise<EventSubscriptionDto> {
    return this.subscriptions.update(user.user_id, subscriptionId, dto);
  }

  @Delete('delete/:subscription_id')
  @ApiRoute(EventSubscriptionDeletedDto, 'Event subscription deleted', {
    operationId: 'deleteEventSubscription',
    summary: 'Delete an event subscription',
    response: 'Event subscription deleted',
  })
  remove(
    @CurrentUser() user: AuthUser,
    @UuidParam('subscription_id') subscriptionId: string,
  ): Promise<EventSubscriptionDeletedDto> {
    return this.subscriptions.remove(user.user_id, subscriptionId);
  }

  @Post('test/:subscription_id')
  @HttpCode(200)
  @ApiRoute(EventSubscriptionTestDto, 'Ping sent', {
    operationId: 'testEventSubscription',
    summary: 'Send a ping event to the subscription now',
    description:
      'One attempt, not retried, signed and logged like every delivery; the answer says whether ' +
      'the URL answered 2xx.',
    response: 'Ping sent',
  })
  test(
    @CurrentUser() user: AuthUser,
    @UuidParam('subscription_id') subscriptionId: string,
  ): Promise<EventSubscriptionTestDto> {
    return this.subscriptions.test(user.user_id, subscriptionId);
  }
}
