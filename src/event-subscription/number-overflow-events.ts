import { Injectable, type OnModuleInit } from '@nestjs/common';
import { NumberOverflow, type NumberOverflowEvent } from '../lookup/number-overflow';
import { TenantEvents } from './tenant-events';

/**
 * `number.overflow`: a call refused because its number was at its cap of concurrent calls, as the
 * lookup reports it (`NumberOverflow`, its one place). The mapping and the room name the event:
 * a room overflows a number once.
 */
@Injectable()
export class NumberOverflowEvents implements OnModuleInit {
  constructor(
    private readonly overflow: NumberOverflow,
    private readonly events: TenantEvents,
  ) {}

  onModuleInit(): void {
    this.overflow.onOverflow((event) => this.raise(event));
  }

  raise(event: NumberOverflowEvent): Promise<void> {
    const { user_id, inbound_id, phone_number, room_name, max_concurrent_calls } = event;
    return this.events.emit(user_id, 'number.overflow', `${inbound_id}\u0000${room_name}`, {
      inbound_id,
      phone_number,
      room_name,
      max_concurrent_calls,
    });
  }
}
