import { AppErrorCode, AppException } from '../../common/errors/app.exception';
import type { ToolEntity } from '../tool.entity';

/** 404 naming every requested id that is not among the caller's tools. */
export function assertAllFound(requested: string[], found: ToolEntity[]): void {
  const foundIds = new Set(found.map((tool) => tool.tool_id));
  const missing = requested.filter((id) => !foundIds.has(id));
  if (missing.length) {
    throw new AppException(AppErrorCode.NOT_FOUND, `Tool not found: ${missing.join(', ')}`, {
      tool_ids: missing,
    });
  }
}

/** 409 when two of the tools share a name: a language model could not tell them apart. */
export function assertUniqueNames(tools: ToolEntity[]): void {
  const byName = new Map<string, string[]>();
  for (const tool of tools)
    byName.set(tool.tool_name, [...(byName.get(tool.tool_name) ?? []), tool.tool_id]);
  for (const [name, ids] of byName) {
    if (ids.length > 1) {
      throw AppException.conflict(`An assistant cannot have two tools named "${name}"`, {
        tool_name: name,
        tool_ids: ids,
      });
    }
  }
}
