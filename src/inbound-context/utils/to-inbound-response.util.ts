import { toIso } from '../../common/time/iso';
import type { InboundResponseDto } from '../dto/inbound-response.dto';
import type { InboundMappingEntity } from '../inbound-mapping.entity';

/** A mapping as the routes return it (and as its ETag and audit entries see it). */
export function toInboundResponse(entity: InboundMappingEntity): InboundResponseDto {
  const config = entity.inbound_config ?? {};
  return {
    inbound_id: entity.inbound_id,
    assistant_id: entity.assistant_id,
    assistant_version: entity.assistant_version ?? null,
    assistant_variants: entity.assistant_variants ?? null,
    environment: entity.environment ?? null,
    guardrail: entity.guardrail ?? null,
    guardrail_state: entity.guardrail_state ?? null,
    inbound_context_strategy_id: entity.inbound_context_strategy_id,
    policy: (entity.policy ?? null),
    service: entity.service,
    inbound_config: {
      ...config,
      phone_number: typeof config.phone_number === 'string' ? config.phone_number : '',
    },
    phone_number_normalized: entity.phone_number_normalized,
    is_active: Boolean(entity.is_active),
    created_at: toIso(entity.created_at),
    updated_at: toIso(entity.updated_at),
  };
}
