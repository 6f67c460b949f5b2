import type { AssistantEntity } from '../assistant.entity';
import type { EffectiveAssistantConfig } from '../assistant.types';
import { applyAssistantDefaults } from './apply-assistant-defaults.util';

/** The stored entity as the call stack uses it: defaults filled in, keys in clear. */
export function toEffectiveConfig(entity: AssistantEntity): EffectiveAssistantConfig {
  return {
    assistant_id: entity.assistant_id,
    user_id: entity.user_id,
    ...applyAssistantDefaults(entity),
    created_at: entity.created_at,
    updated_at: entity.updated_at,
  };
}
