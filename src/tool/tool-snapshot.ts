import type { PublishedTool } from '../assistant/assistant-snapshot';
import type { ToolEntity } from './tool.entity';

/** A tool's definition as a published version holds it (what a pinned call runs). */
export type ToolSnapshot = Pick<
  ToolEntity,
  | 'tool_id'
  | 'tool_name'
  | 'tool_description'
  | 'tool_parameters'
  | 'tool_execution_type'
  | 'tool_execution_config'
> &
  Partial<
    Pick<ToolEntity, 'side_effect' | 'dedupe_key' | 'dedupe_window_seconds' | 'notify_cancel'>
  >;

/** The definition to publish: the stored tool without its owner and timestamps. */
export function toToolSnapshot(tool: ToolEntity): ToolSnapshot {
  return {
    tool_id: tool.tool_id,
    tool_name: tool.tool_name,
    tool_description: tool.tool_description,
    tool_parameters: tool.tool_parameters,
    tool_execution_type: tool.tool_execution_type,
    tool_execution_config: tool.tool_execution_config,
    side_effect: tool.side_effect,
    dedupe_key: tool.dedupe_key,
    dedupe_window_seconds: tool.dedupe_window_seconds,
    notify_cancel: tool.notify_cancel,
  };
}

/**
 * A version's tools read back. The assistant module keeps them as JSON it does not interpret;
 * every one was written by `toToolSnapshot` at publish, so this is their shape.
 */
export function readToolSnapshots(held: readonly PublishedTool[]): ToolSnapshot[] {
  return held as ToolSnapshot[];
}
