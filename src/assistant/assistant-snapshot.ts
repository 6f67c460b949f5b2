import type { ToolRecord } from '../tool/tool.repository';
import type { AssistantEntity } from './assistant.entity';

/** The assistant's stored columns at publish time (dates as ISO text). */
export type AssistantSnapshot = Omit<AssistantEntity, 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};

/** An attached tool's definition at publish time, in attachment order. */
export type ToolSnapshot = Omit<ToolRecord, 'user_id' | 'created_at' | 'updated_at'>;

/** The assistant record a snapshot was taken from, as the read paths expect it. */
export function restoreAssistant(snapshot: AssistantSnapshot): AssistantEntity {
  return {
    ...snapshot,
    created_at: new Date(snapshot.created_at),
    updated_at: new Date(snapshot.updated_at),
  };
}
