import { toIso } from '../common/time/iso';
import { maskHeaders, maskUrl, mergeHeaders } from '../common/secrets/masking';
import type { CreateToolDto } from './dto/create-tool.dto';
import type { ToolDetailsDto } from './dto/tool-response.dto';
import { DEFAULT_WEBHOOK_TIMEOUT_SECONDS } from './tool.constants';
import type { ToolEntity, ToolExecutionType } from './tool.entity';
import type {
  StaticReturnExecutionConfig,
  StaticValue,
  ToolExecutionConfig,
  ToolParameter,
  WebhookExecutionConfig,
} from './tool.types';

/*
 * Pure functions over tool records: defaults on save, masking on read, merge on update. Inputs
 * are validated already (CreateToolDto); these never throw.
 */

/** The API fields of a tool as stored: defaults applied, header values in clear. */
export interface ToolFields {
  tool_name: string;
  tool_description: string;
  tool_parameters: ToolParameter[];
  tool_execution_type: ToolExecutionType;
  tool_execution_config: ToolExecutionConfig;
}

type Plain = Record<string, unknown>;

const isPlainObject = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A parameter with `required` filled in and nothing but its known keys. */
export function parameterWithDefaults(parameter: {
  name: string;
  type: ToolParameter['type'];
  description?: string | null;
  required?: boolean | null;
  enum?: string[] | null;
}): ToolParameter {
  // Key order as documented: name, type, description, required, enum.
  return {
    name: parameter.name,
    type: parameter.type,
    ...(typeof parameter.description === 'string' && { description: parameter.description }),
    required: parameter.required ?? true,
    ...(Array.isArray(parameter.enum) && { enum: [...parameter.enum] }),
  };
}

export function webhookConfigWithDefaults(config: Plain): WebhookExecutionConfig {
  return {
    url: String(config.url),
    timeout: typeof config.timeout === 'number' ? config.timeout : DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
    headers: isPlainObject(config.headers) ? { ...(config.headers as Record<string, string>) } : {},
  };
}

/** Validated fields (a create body, a merged update, or a stored row) with every default filled in; idempotent. */
export function toolFieldsWithDefaults(input: CreateToolDto | ToolFields): ToolFields {
  const config = (input.tool_execution_config ?? {}) as unknown as Plain;
  return {
    tool_name: input.tool_name,
    tool_description: input.tool_description,
    tool_parameters: (input.tool_parameters ?? []).map((p) => parameterWithDefaults(p)),
    tool_execution_type: input.tool_execution_type,
    tool_execution_config:
      input.tool_execution_type === 'webhook'
        ? webhookConfigWithDefaults(config)
        : ({ value: config.value as StaticValue } satisfies StaticReturnExecutionConfig),
  };
}

/** A stored row's fields, defaults applied. */
export function fieldsOf(entity: ToolEntity): ToolFields {
  return toolFieldsWithDefaults(entity as unknown as ToolFields);
}

/** The public view of a tool: defaults filled in, sensitive header values as `****`. */
export function toToolDetails(entity: ToolEntity): ToolDetailsDto {
  const fields = fieldsOf(entity);
  const config = fields.tool_execution_config;
  return {
    tool_id: entity.tool_id,
    tool_name: fields.tool_name,
    tool_description: fields.tool_description,
    tool_parameters: fields.tool_parameters,
    tool_execution_type: fields.tool_execution_type,
    tool_execution_config:
      fields.tool_execution_type === 'webhook'
        ? {
            ...(config as WebhookExecutionConfig),
            url: maskUrl((config as WebhookExecutionConfig).url),
            headers: maskHeaders((config as WebhookExecutionConfig).headers),
          }
        : { value: (config as StaticReturnExecutionConfig).value },
    created_at: toIso(entity.created_at),
    updated_at: toIso(entity.updated_at),
  };
}

/**
 * A PATCH applied to the stored fields, to be re-validated with CreateToolDto. Top-level fields
 * replace. `tool_execution_config` merges into the stored config key by key while the execution
 * type stays (a `null` key is removed, so its default applies again; `headers` merge by name:
 * `null` deletes, `****` keeps); when the type changes the stored config is dropped and the sent
 * one stands alone, so a webhook's headers never leak into another shape.
 */
export function mergeToolUpdate(stored: ToolFields, patch: Plain): Plain {
  const merged: Plain = {
    tool_name: stored.tool_name,
    tool_description: stored.tool_description,
    tool_parameters: stored.tool_parameters,
    tool_execution_type: stored.tool_execution_type,
  };
  for (const field of [
    'tool_name',
    'tool_description',
    'tool_parameters',
    'tool_execution_type',
  ] as const) {
    if (patch[field] !== undefined) merged[field] = patch[field];
  }
  if (Array.isArray(merged.tool_parameters)) {
    merged.tool_parameters = (merged.tool_parameters as unknown[]).map((p) =>
      isPlainObject(p) ? { ...p } : p,
    );
  }

  const typeChanges =
    patch.tool_execution_type !== undefined &&
    patch.tool_execution_type !== stored.tool_execution_type;
  const base: Plain = typeChanges ? {} : { ...(stored.tool_execution_config as unknown as Plain) };
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
