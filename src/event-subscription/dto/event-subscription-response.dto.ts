import { ApiProperty } from '@nestjs/swagger';
import { SUBSCRIBABLE_EVENTS, type SubscribableEvent } from '../event-subscription.types';

export class EventSubscriptionDto {
  subscription_id: string;
  url: string;

  @ApiProperty({ enum: SUBSCRIBABLE_EVENTS, isArray: true })
  events: SubscribableEvent[];

  @ApiProperty({ type: String, nullable: true })
  description: string | null;

  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

/** The creation's answer: the only one that carries the signing secret. */
export class CreatedEventSubscriptionDto extends EventSubscriptionDto {
  /**
   * The Standard Webhooks signing secret of this subscription's deliveries (`whsec_...`). Shown
   * once, here: store it now.
   * @example "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
   */
  secret: string;
}

export class EventSubscriptionListDto {
  items: EventSubscriptionDto[];
  total: number;
  page: number;
  limit: number;
}

export class EventSubscriptionDeletedDto {
  subscription_id: string;
}

/** What the `ping` sent to the subscription's URL came to. */
export class EventSubscriptionTestDto {
  /** The `ping` event's id. */
  event_id: string;
  /** `delivered`, or `failed` when the URL did not answer 2xx (the entry says why). */
  @ApiProperty({ enum: ['delivered', 'failed'] })
  status: 'delivered' | 'failed';
  @ApiProperty({ type: 'integer', nullable: true })
  status_code: number | null;
  /** The delivery's `event_delivery` entry in `GET /logs`. */
  @ApiProperty({ type: String, nullable: true })
  log_id: string | null;
}
