import { ActivityLogCountEntity } from '../activity-log/activity-log-count.entity';
import { ActivityLogEntity } from '../activity-log/activity-log.entity';
import { AssistantVersionEntity } from '../assistant/assistant-version.entity';
import { AssistantEntity } from '../assistant/assistant.entity';
import { AuditEntryEntity } from '../audit/audit-entry.entity';
import { ApiKeyEntity } from '../auth/api-key.entity';
import { UserEntity } from '../auth/user.entity';
import { IdempotencyKeyEntity } from '../idempotency/idempotency-key.entity';
import { InboundContextStrategyEntity } from '../inbound-context/inbound-context-strategy.entity';
import { InboundMappingEntity } from '../inbound-context/inbound-mapping.entity';
import { PhoneNumberHolderEntity } from '../inbound-context/phone-number-holder.entity';
import { SecretEntity } from '../secret/secret.entity';
import { AssistantToolEntity } from '../tool/assistant-tool.entity';
import { ToolEntity } from '../tool/tool.entity';

export const ENTITIES = [
  UserEntity,
  ApiKeyEntity,
  AssistantEntity,
  AssistantVersionEntity,
  ToolEntity,
  AssistantToolEntity,
  InboundContextStrategyEntity,
  InboundMappingEntity,
  PhoneNumberHolderEntity,
  ActivityLogEntity,
  ActivityLogCountEntity,
  IdempotencyKeyEntity,
  SecretEntity,
  AuditEntryEntity,
];
