import { Injectable } from '@nestjs/common';

/** What another module does when a room's call ends. */
export type CallEndedHandler = (roomName: string) => Promise<unknown>;

/**
 * The end-call path's one seam to the modules above it (the inbound number's concurrency slot is
 * freed there): each registers a handler at start-up, and the room's first `end-call-webhook` job
 * runs them all before its delivery. A handler's failure is its own to report.
 */
@Injectable()
export class CallEndings {
  private readonly handlers: CallEndedHandler[] = [];

  /** Registers a handler (a module's `onModuleInit`). */
  onEnded(handler: CallEndedHandler): void {
    this.handlers.push(handler);
  }

  async ended(roomName: string): Promise<void> {
    await Promise.all(this.handlers.map((handler) => handler(roomName)));
  }
}
