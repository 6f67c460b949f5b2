import type { DataSourceOptions } from 'typeorm';
import { ActivityLogCountEntity } from './activity-log/activity-log-count.entity';
import { ActivityLogEntity } from './activity-log/activity-log.entity';
import { ActivityLogTargetCountEntity } from './activity-log/activity-log-target-count.entity';
import { AuditEntryEntity } from './audit/audit-entry.entity';
import { AssistantVersionEntity } from './assistant/assistant-version.entity';
import { AssistantEntity } from './assistant/assistant.entity';
import { ApiKeyEntity } from './auth/api-key.entity';
import { UserEntity } from './auth/user.entity';
import { EventSubscriptionEntity } from './event-subscription/event-subscription.entity';
import { IdempotencyKeyEntity } from './idempotency/idempotency-key.entity';
import { InboundContextStrategyEntity } from './inbound-context/inbound-context-strategy.entity';
import { InboundMappingEntity } from './inbound-context/inbound-mapping.entity';
import { PhoneNumberHolderEntity } from './inbound-context/phone-number-holder.entity';
import { AssistantCheckEntity } from './rollout/assistant-check.entity';
import { SplitCallEntity } from './rollout/split-call.entity';
import { TestCaseEntity } from './rollout/test-case.entity';
import { SecretEntity } from './secret/secret.entity';
import { type AppConfig } from './config/app-config';
import { dataSourceOptions } from './database/data-source-options';
import { AssistantToolEntity } from './assistant/assistant-tool.entity';
import { ToolEntity } from './tool/tool.entity';

/** Every table of the service, each entity declared by the module that owns it. */
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
  ActivityLogTargetCountEntity,
  IdempotencyKeyEntity,
  SecretEntity,
  AuditEntryEntity,
  TestCaseEntity,
  AssistantCheckEntity,
  SplitCallEntity,
  EventSubscriptionEntity,
];

/**
 * The service's TypeORM options: the database layer's options for the configured driver, with
 * every module's entities. The application, the TypeORM CLI, tests and benchmarks all open the
 * database through here, so the entity list is kept in one place, above the modules it names.
 */
export function appDataSourceOptions(database?: AppConfig['database']): DataSourceOptions {
  return { ...dataSourceOptions(database), entities: ENTITIES };
}
