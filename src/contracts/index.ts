/**
 * The queue contract with the call stack: the queue table (names, job options, concurrency) and
 * one JSON Schema per queue for its job data and return value, checked at runtime by the
 * processors and the producer clients, and shipped as `packages/client/schemas/<queue>.schema.json`
 * for producers in other languages. Nest-free.
 */
import { callEndedContract } from './call-ended.contract';
import { endCallWebhookContract } from './end-call-webhook.contract';
import { inboundContextLookupContract } from './inbound-context-lookup.contract';
import { toolCallContract } from './tool-call.contract';
import { toolCallCancelContract } from './tool-call-cancel.contract';

export * from './queues';
export * from './job-contract';
export * from './inbound-context-lookup.contract';
export * from './tool-call.contract';
export * from './end-call-webhook.contract';
export * from './call-ended.contract';
export * from './tool-call-cancel.contract';

export const JOB_CONTRACTS = [
  inboundContextLookupContract,
  toolCallContract,
  endCallWebhookContract,
  callEndedContract,
  toolCallCancelContract,
] as const;

/** The text of `packages/client/schemas/<queue>.schema.json` for each queue. */
export function jsonSchemaFiles(): Record<string, string> {
  return Object.fromEntries(
    JOB_CONTRACTS.map((contract) => [
      `${contract.queue}.schema.json`,
      `${JSON.stringify(contract.jsonSchemaDocument(), null, 2)}\n`,
    ]),
  );
}
