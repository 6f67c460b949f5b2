import { Injectable, Logger } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';

/** A call refused because its number was at its cap of concurrent calls. */
export interface NumberOverflowEvent {
  user_id: string;
  inbound_id: string;
  phone_number: string;
  room_name: string;
  max_concurrent_calls: number;
}

export type NumberOverflowHandler = (event: NumberOverflowEvent) => Promise<unknown>;

/**
 * The one place a lookup reports an overflow (the `number.overflow` event of a tenant's
 * subscriptions): a module above registers its handler at start-up. A handler's failure never
 * reaches the call: it is logged here.
 */
@Injectable()
export class NumberOverflow {
  private readonly logger = new Logger(NumberOverflow.name);
  private readonly handlers: NumberOverflowHandler[] = [];

  onOverflow(handler: NumberOverflowHandler): void {
    this.handlers.push(handler);
  }

  report(event: NumberOverflowEvent): void {
    this.logger.log(
      { inbound_id: event.inbound_id, max_concurrent_calls: event.max_concurrent_calls },
      'number at its cap of concurrent calls',
    );
    for (const handler of this.handlers)
      handler(event).catch((error: unknown) =>
        this.logger.warn({ err: loggableError(error) }, 'number.overflow handler failed'),
      );
  }
}
