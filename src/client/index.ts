/** The producer side of the queue contract, for the call stack. */
export * from '../inbound-context/client';
export { CallEventsClient, type CallEventsClientOptions } from './call-events.client';
export * from '../contracts/tool-call.contract';
export * from '../contracts/end-call-webhook.contract';
