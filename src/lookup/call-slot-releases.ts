import { Injectable, type OnModuleInit } from '@nestjs/common';
import { CallEndings } from '../assistant/call-endings';
import { CallSlots } from '../inbound-policy/call-slots';
import { RoutingTable } from './routing/routing-table';

/**
 * Frees the concurrency slot a room's call held, when its call ends: on the room's first
 * `end-call-webhook` job (registered with `CallEndings`) and on a `call-ended` job.
 */
@Injectable()
export class CallSlotReleases implements OnModuleInit {
  constructor(
    private readonly slots: CallSlots,
    private readonly endings: CallEndings,
    private readonly routing: RoutingTable,
  ) {}

  onModuleInit(): void {
    this.endings.onEnded((roomName) => this.slots.free(roomName));
  }

  /**
   * Frees the room's slot; with the dialled number, found through the routing table, also when the
   * room's own record of its slot is gone.
   */
  async release(roomName: string, inboundNumber?: string): Promise<boolean> {
    const hit = inboundNumber
      ? await this.routing.find({ room_name: roomName, inbound_number: inboundNumber })
      : undefined;
    return this.slots.free(roomName, hit?.routing?.found.mapping.inbound_id ?? null);
  }
}
