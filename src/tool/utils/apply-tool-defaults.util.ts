import {
  DEDUPE_WINDOW_SECONDS,
  DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
  type SideEffect,
} from '../tool.constants';
import type {
  StaticReturnExecutionConfig,
  StaticValue,
  ToolExecutionType,
  ToolFields,
  ToolParameter,
  ToolSideEffectFields,
  WebhookExecutionConfig,
} from '../tool.types';

/** A parameter as sent or as stored: `required` may be missing. */
export interface ToolParameterInput {
  name: string;
  type: ToolParameter['type'];
  description?: string | null;
  required?: boolean | null;
  enum?: string[] | null;
}

/** Validated fields (a create body, a merged update, or a stored row), defaults possibly missing. */
export interface ToolFieldsInput {
  tool_name: string;
  tool_description: string;
  tool_parameters?: ToolParameterInput[];
  tool_execution_type: ToolExecutionType;
  /** Validated against the execution type: a webhook's keys or a static value. */
  tool_execution_config: Partial<WebhookExecutionConfig> & Partial<StaticReturnExecutionConfig>;
  /** Absent on tools published before side effects existed: `none`. */
  side_effect?: SideEffect | null;
  dedupe_key?: string[] | null;
  dedupe_window_seconds?: number | null;
  notify_cancel?: boolean | null;
}

/** A parameter with `required` filled in and nothing but its known keys. */
export function parameterWithDefaults(parameter: ToolParameterInput): ToolParameter {
  // Key order as documented: name, type, description, required, enum.
  return {
    name: parameter.name,
    type: parameter.type,
    ...(typeof parameter.description === 'string' && { description: parameter.description }),
    required: parameter.required ?? true,
    ...(Array.isArray(parameter.enum) && { enum: [...parameter.enum] }),
  };
}

function webhookConfigWithDefaults(
  config: Partial<WebhookExecutionConfig>,
): WebhookExecutionConfig {
  return {
    url: String(config.url),
    timeout: typeof config.timeout === 'number' ? config.timeout : DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
    headers: config.headers ? { ...config.headers } : {},
  };
}

/** The tool's fields with every default filled in; idempotent (inputs are validated, nothing throws). */
export function applyToolDefaults(input: ToolFieldsInput): ToolFields {
  const common = {
    tool_name: input.tool_name,
    tool_description: input.tool_description,
    tool_parameters: (input.tool_parameters ?? []).map((p) => parameterWithDefaults(p)),
    ...sideEffectWithDefaults(input),
  };
  const config = input.tool_execution_config;
  return input.tool_execution_type === 'webhook'
    ? {
        ...common,
        tool_execution_type: 'webhook',
        tool_execution_config: webhookConfigWithDefaults(config),
      }
    : {
        ...common,
        tool_execution_type: 'static_return',
        // Validated: a static_return config always has its value.
        tool_execution_config: { value: config.value as StaticValue },
      };
}

/** The side-effect fields of a tool that sets none of them. */
export const NO_SIDE_EFFECT: Readonly<ToolSideEffectFields> = Object.freeze({
  side_effect: 'none',
  dedupe_key: null,
  dedupe_window_seconds: DEDUPE_WINDOW_SECONDS.default,
  notify_cancel: false,
});

function sideEffectWithDefaults(input: ToolFieldsInput): ToolSideEffectFields {
  const sideEffect = input.side_effect ?? 'none';
  return {
    side_effect: sideEffect,
    dedupe_key: sideEffect !== 'none' && input.dedupe_key?.length ? [...input.dedupe_key] : null,
    dedupe_window_seconds: input.dedupe_window_seconds ?? DEDUPE_WINDOW_SECONDS.default,
    notify_cancel: input.notify_cancel ?? false,
  };
}
