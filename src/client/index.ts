/** The producer side of the queue contract, for the call stack. */
export * from '../inbound-context/client';
export { CallEventsClient, type CallEventsClientOptions } from './call-events.client';
export type { ToolCallJobData, ToolCallResult } from '../tool/tool-call.service';
export type { EndCallJobData, EndCallOutcome } from '../assistant/end-call-webhook.service';
