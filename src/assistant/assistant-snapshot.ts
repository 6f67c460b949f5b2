import type { AssistantEntity } from './assistant.entity';

/** The assistant's stored columns at publish time (dates as ISO text). */
export type AssistantSnapshot = Omit<AssistantEntity, 'created_at' | 'updated_at'> & {
  created_at: string;
  updated_at: string;
};

/**
 * An attached tool's definition at publish time, in attachment order. The tool module writes it
 * (its `ToolSnapshot`) and reads it back; the assistant keeps it as JSON and reads only the id.
 * The execution fields are named so that a reader scanning for secret references can walk them.
 */
export interface PublishedTool {
  tool_id: string;
  tool_execution_type: string;
  tool_execution_config: unknown;
}

/** The assistant record a snapshot was taken from, as the read paths expect it. */
export function restoreAssistant(snapshot: AssistantSnapshot): AssistantEntity {
  return {
    ...snapshot,
    created_at: new Date(snapshot.created_at),
    updated_at: new Date(snapshot.updated_at),
  };
}
