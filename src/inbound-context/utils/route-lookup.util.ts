import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { CallVariables } from '../../assistant/prompt-render';
import { normalizePhoneNumber } from '../../common/validation/phone-number';
import type {
  InboundContextLookupJobData,
  InboundContextLookupResult,
} from '../../contracts/inbound-context-lookup.contract';
import type { InboundContextStrategyEntity } from '../inbound-context-strategy.entity';
import type { InboundMappingEntity } from '../inbound-mapping.entity';
import type { ResolvedMapping } from '../lookup.repository';
import { chooseAssistant } from '../variant-choice';
import { callVariables } from './lookup-payload.util';

/** The fields every result of a routed lookup carries, whatever its outcome. */
export type LookupResultBase = Pick<
  InboundContextLookupResult,
  'assistant_id' | 'assistant_name' | 'assistant_version' | 'variant' | 'inbound_id' | 'strategy_id'
>;

/** Where a resolved mapping sends this call: the assistant (and version) it renders, and the strategy. */
export interface LookupRoute {
  room_name: string;
  mapping: InboundMappingEntity;
  assistant: AssistantEntity | null;
  /** Null for the working copy. */
  version: number | null;
  variant: number | null;
  strategyId: string | null;
  strategy: InboundContextStrategyEntity | null;
  base: LookupResultBase;
  call: CallVariables;
}

/** How a job names its mapping: the cache key of what it resolves to. */
export function mappingKey(data: InboundContextLookupJobData): string {
  return data.inbound_id
    ? `id:${data.inbound_id}`
    : `number:${normalizePhoneNumber(data.inbound_number ?? '')}`;
}

/** The pin, or this caller's arm of the split; the call's later jobs run the same version. */
export function routeLookup(
  found: ResolvedMapping,
  data: InboundContextLookupJobData,
): LookupRoute {
  const { mapping, strategy } = found;
  const { assistant, version, variant } = chooseAssistant(found, data);
  const strategyId = mapping.inbound_context_strategy_id;
  return {
    room_name: data.room_name,
    mapping,
    assistant,
    version,
    variant,
    strategyId,
    strategy,
    base: {
      assistant_id: assistant?.assistant_id ?? mapping.assistant_id,
      assistant_name: assistant?.assistant_name ?? null,
      assistant_version: version,
      variant,
      inbound_id: mapping.inbound_id,
      strategy_id: strategyId,
    },
    call: callVariables(data, mapping),
  };
}
