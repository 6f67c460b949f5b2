import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayNotEmpty, ArrayUnique, IsArray, IsIn } from 'class-validator';
import { Optional, ValidateHttpUrl, ValidateText } from '../../common/validation/validation';
import {
  MAX_SUBSCRIPTION_EVENTS,
  SUBSCRIBABLE_EVENTS,
  SUBSCRIPTION_DESCRIPTION_MAX_LENGTH,
  SUBSCRIPTION_URL_MAX_LENGTH,
  type SubscribableEvent,
} from '../event-subscription.types';

/** `events`: 1 or more distinct event types, each one the service sends. */
function ValidateEvents(options: { optional?: boolean } = {}): PropertyDecorator {
  return (target, key) => {
    ApiProperty({
      enum: SUBSCRIBABLE_EVENTS,
      isArray: true,
      minItems: 1,
      maxItems: MAX_SUBSCRIPTION_EVENTS,
      uniqueItems: true,
    })(target, key);
    if (options.optional) Optional()(target, key);
    IsArray()(target, key);
    ArrayNotEmpty()(target, key);
    ArrayMaxSize(MAX_SUBSCRIPTION_EVENTS)(target, key);
    ArrayUnique()(target, key);
    IsIn(SUBSCRIBABLE_EVENTS, {
      each: true,
      message: `each value in $property must be one of: ${SUBSCRIBABLE_EVENTS.join(', ')}`,
    })(target, key);
  };
}

export class CreateEventSubscriptionDto {
  /**
   * http(s) URL that receives the events; it must be a public address (as every webhook URL).
   * @example "https://example.com/hooks/voice-events"
   */
  @ValidateHttpUrl(SUBSCRIPTION_URL_MAX_LENGTH)
  url: string;

  /** The event types to deliver. */
  @ValidateEvents()
  events: SubscribableEvent[];

  /** What the subscription is for, shown back on reads. */
  @ValidateText(0, SUBSCRIPTION_DESCRIPTION_MAX_LENGTH, { optional: true, nullable: true })
  description?: string | null;
}

/** A field sent replaces the stored one; `description: null` clears it. The secret never changes. */
export class UpdateEventSubscriptionDto {
  /** @example "https://example.com/hooks/voice-events" */
  @ValidateHttpUrl(SUBSCRIPTION_URL_MAX_LENGTH, { optional: true })
  url?: string;

  @ValidateEvents({ optional: true })
  events?: SubscribableEvent[];

  @ValidateText(0, SUBSCRIPTION_DESCRIPTION_MAX_LENGTH, { optional: true, nullable: true })
  description?: string | null;
}
