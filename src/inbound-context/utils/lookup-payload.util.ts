import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { CallVariables } from '../../assistant/prompt-render';
import type { InboundContextLookupJobData } from '../../contracts/inbound-context-lookup.contract';
import type { InboundContextStrategyEntity } from '../inbound-context-strategy.entity';
import type { InboundMappingEntity } from '../inbound-mapping.entity';

/** The call a payload describes: the job's own values (or the dry run's sample ones). */
export type PayloadCall = Pick<InboundContextLookupJobData, 'room_name' | 'caller_number'>;

/** The spec's webhook body. Keys may be added, never removed. */
export function buildPayload(
  data: PayloadCall,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized' | 'assistant_id'>,
  assistant: Pick<AssistantEntity, 'assistant_id' | 'assistant_name'> | null,
  strategy: Pick<InboundContextStrategyEntity, 'strategy_name' | 'strategy_type'> | null,
  strategyId: string,
): Record<string, unknown> {
  return {
    assistant_id: assistant?.assistant_id ?? mapping.assistant_id ?? '',
    assistant_name: assistant?.assistant_name ?? '',
    room_name: data.room_name,
    strategy_id: strategyId,
    strategy_name: strategy?.strategy_name ?? '',
    strategy_type: strategy?.strategy_type ?? 'webhook',
    call_type: 'inbound',
    service: 'exotel',
    inbound_id: mapping.inbound_id,
    ...(data.caller_number !== undefined ? { caller_number: data.caller_number } : {}),
    inbound_number: mapping.phone_number_normalized,
  };
}

/** What `{{call.*}}` renders: the same values the webhook payload carries. */
export function callVariables(
  data: PayloadCall,
  mapping: Pick<InboundMappingEntity, 'inbound_id' | 'phone_number_normalized'>,
): CallVariables {
  return {
    caller_number: data.caller_number ?? null,
    inbound_number: mapping.phone_number_normalized,
    room_name: data.room_name,
    inbound_id: mapping.inbound_id,
    call_type: 'inbound',
  };
}
