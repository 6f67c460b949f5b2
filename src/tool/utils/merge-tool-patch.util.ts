import { mergeHeaders } from '../../common/secrets/masking';
import type { UpdateToolDto } from '../dto/update-tool.dto';
import type { ToolFields } from '../tool.types';

type Plain = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

const TOP_LEVEL_FIELDS = [
  'tool_name',
  'tool_description',
  'tool_parameters',
  'tool_execution_type',
  'side_effect',
  'dedupe_key',
  'dedupe_window_seconds',
  'notify_cancel',
] as const;

/**
 * A PATCH applied to the stored fields, to be re-validated with CreateToolDto. Top-level fields
 * replace. `tool_execution_config` merges into the stored config key by key while the execution
 * type stays (a `null` key is removed, so its default applies again; `headers` merge by name:
 * `null` deletes, `****` keeps); when the type changes the stored config is dropped and the sent
 * one stands alone, so a webhook's headers never leak into another shape.
 */
export function mergeToolPatch(stored: ToolFields, patch: UpdateToolDto): Plain {
  const merged: Plain = {};
  for (const field of TOP_LEVEL_FIELDS)
    merged[field] = patch[field] !== undefined ? patch[field] : stored[field];
  if (Array.isArray(merged.tool_parameters)) {
    merged.tool_parameters = (merged.tool_parameters as unknown[]).map((p) =>
      isPlainObject(p) ? { ...p } : p,
    );
  }

  const typeChanges =
    patch.tool_execution_type !== undefined &&
    patch.tool_execution_type !== stored.tool_execution_type;
  const base: Plain = typeChanges ? {} : { ...stored.tool_execution_config };
  const sent = isPlainObject(patch.tool_execution_config) ? patch.tool_execution_config : {};
  for (const [key, value] of Object.entries(sent)) {
    if (value === undefined) continue;
    if (key === 'headers') {
      const storedHeaders = isPlainObject(base.headers)
        ? (base.headers as Record<string, string>)
        : {};
      base.headers = mergeHeaders(storedHeaders, value as Record<string, string | null>);
      continue;
    }
    if (value === null) delete base[key];
    else base[key] = value;
  }
  merged.tool_execution_config = base;
  return merged;
}
