import { Injectable } from '@nestjs/common';
import { AssistantToolsRepository } from '../assistant/assistant-tools.repository';
import { PublishedVersions } from '../assistant/published-versions';
import type { FailureKind } from '../contracts/error-class';
import { readToolSnapshots } from './tool-snapshot';
import { ToolRepository } from './tool.repository';
import type { ToolFields } from './tool.types';
import { applyToolDefaults } from './utils/apply-tool-defaults.util';

/**
 * The tool a call runs, or why it cannot: `tool` is set whenever the entry may name it (the
 * caller's own tool), even when the call is refused.
 */
export type CallTool =
  | { ok: true; tool: ToolFields }
  | { ok: false; tool: ToolFields | null; error: string; kind: FailureKind };

/**
 * Finds the definition a `tool-call` job runs: with a published version, the tool as that version
 * holds it (URL, headers, timeout, parameters, static value), even if the tool was edited or
 * deleted since; with the working copy, the tool as it is now, if it is attached.
 */
@Injectable()
export class CallToolResolver {
  constructor(
    private readonly tools: ToolRepository,
    private readonly published: PublishedVersions,
    private readonly links: AssistantToolsRepository,
  ) {}

  async resolve(
    userId: string,
    assistantId: string,
    toolId: string,
    version: number | null,
  ): Promise<CallTool> {
    if (version === null) return this.workingCopy(userId, assistantId, toolId);
    const found = await this.published.find(userId, assistantId, version);
    if (!found)
      return {
        ok: false,
        tool: null,
        error: `Version ${version} of this assistant not found.`,
        kind: 'version_not_found',
      };
    const snapshot = readToolSnapshots(found.tools).find((tool) => tool.tool_id === toolId);
    if (!snapshot)
      return {
        ok: false,
        tool: null,
        error: `Tool ${toolId} is not in version ${version} of this assistant.`,
        kind: 'tool_not_in_version',
      };
    return { ok: true, tool: applyToolDefaults(snapshot) };
  }

  private async workingCopy(
    userId: string,
    assistantId: string,
    toolId: string,
  ): Promise<CallTool> {
    const found = await this.tools.findById(toolId);
    // Another user's tool is reported exactly like a missing one, and its name never reaches the log.
    const tool = found && found.user_id === userId ? applyToolDefaults(found) : null;
    if (!tool)
      return { ok: false, tool: null, error: `Tool ${toolId} not found.`, kind: 'tool_not_found' };
    if (!(await this.links.isAttached(assistantId, toolId)))
      return {
        ok: false,
        tool,
        error: `Tool "${tool.tool_name}" is not attached to this assistant.`,
        kind: 'tool_not_attached',
      };
    return { ok: true, tool };
  }
}
