import { LRUCache } from 'lru-cache';

/** A slot an `open` lookup asks for: the number's, for the room, under the number's cap. */
export interface SlotRequest {
  inboundId: string;
  roomName: string;
  /** The number's `max_concurrent_calls`. */
  cap: number;
  /** The lease: a slot whose call never reported its end is free again after this. */
  ttlSeconds: number;
}

/**
 * The concurrency slots of the numbers whose policy sets `max_concurrent_calls`: one slot per
 * room (a room's second lookup keeps the slot it has), taken by an `open` lookup, freed when the
 * room's call ends (`free`), or when its lease runs out. On Redis in production (shared by every
 * process), in this process's memory in embedded mode; one interface for both.
 */
export abstract class CallSlots {
  /** Whether the room holds a slot of the number now (it had one, or one was free and is now its). */
  abstract take(request: SlotRequest, now?: number): Promise<boolean>;
  /**
   * Frees the slot the room holds: of the number it was taken on (`inboundId` when the caller
   * knows it and the room's record is gone). Whether a slot was freed.
   */
  abstract free(roomName: string, inboundId?: string | null): Promise<boolean>;
}

/** Embedded mode: the one process's memory, each call running to its end before another starts. */
export class MemoryCallSlots extends CallSlots {
  /** Per number: room → the lease's end (ms). */
  private readonly numbers = new Map<string, Map<string, number>>();
  /** Room → the number whose slot it holds; bounded, dropped with the longest lease. */
  private readonly rooms = new LRUCache<string, string>({ max: 100_000, ttl: 86_400_000 });

  take({ inboundId, roomName, cap, ttlSeconds }: SlotRequest, now = Date.now()): Promise<boolean> {
    const slots = this.numbers.get(inboundId) ?? new Map<string, number>();
    for (const [room, until] of slots) if (until <= now) slots.delete(room);
    const held = slots.has(roomName);
    if (!held && slots.size >= cap) return Promise.resolve(false);
    if (!held) slots.set(roomName, now + ttlSeconds * 1000);
    this.numbers.set(inboundId, slots);
    this.rooms.set(roomName, inboundId, { ttl: ttlSeconds * 1000 });
    return Promise.resolve(true);
  }

  free(roomName: string, inboundId?: string | null): Promise<boolean> {
    const number = this.rooms.get(roomName) ?? inboundId;
    this.rooms.delete(roomName);
    const slots = number === undefined || number === null ? undefined : this.numbers.get(number);
    const freed = slots?.delete(roomName) ?? false;
    if (slots && !slots.size) this.numbers.delete(number!);
    return Promise.resolve(freed);
  }
}
