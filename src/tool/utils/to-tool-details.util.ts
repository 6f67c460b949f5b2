import { toIso } from '../../common/time/iso';
import { maskHeaders } from '../../common/secrets/masking';
import { maskUrl } from '../../common/secrets/url-masking';
import type { ToolDetailsDto } from '../dto/tool-response.dto';
import type { ToolEntity } from '../tool.entity';
import { applyToolDefaults } from './apply-tool-defaults.util';

/** The public view of a tool: defaults filled in, sensitive header values as `****`. */
export function toToolDetails(entity: ToolEntity): ToolDetailsDto {
  const fields = applyToolDefaults(entity);
  return {
    tool_id: entity.tool_id,
    tool_name: fields.tool_name,
    tool_description: fields.tool_description,
    tool_parameters: fields.tool_parameters,
    tool_execution_type: fields.tool_execution_type,
    tool_execution_config:
      fields.tool_execution_type === 'webhook'
        ? {
            ...fields.tool_execution_config,
            url: maskUrl(fields.tool_execution_config.url),
            headers: maskHeaders(fields.tool_execution_config.headers),
          }
        : { value: fields.tool_execution_config.value },
    side_effect: fields.side_effect,
    dedupe_key: fields.dedupe_key,
    dedupe_window_seconds: fields.dedupe_window_seconds,
    notify_cancel: fields.notify_cancel,
    created_at: toIso(entity.created_at),
    updated_at: toIso(entity.updated_at),
  };
}
