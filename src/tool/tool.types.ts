import type { SideEffect, TOOL_EXECUTION_TYPES, ToolParameterType } from './tool.constants';

export type ToolExecutionType = (typeof TOOL_EXECUTION_TYPES)[number];

/** A parameter as stored and returned: `required` always present. */
export interface ToolParameter {
  name: string;
  type: ToolParameterType;
  description?: string;
  required: boolean;
  enum?: string[];
}

/** Stored webhook config: defaults applied, header values in clear (masked on every read but the runtime view). */
export interface WebhookExecutionConfig {
  url: string;
  timeout: number;
  headers: Record<string, string>;
}

/** Any JSON value but `null`. */
export type StaticValue = string | number | boolean | Record<string, unknown> | unknown[];

export interface StaticReturnExecutionConfig {
  value: StaticValue;
}

export type ToolExecutionConfig = WebhookExecutionConfig | StaticReturnExecutionConfig;

/** How calls of a tool are kept from acting twice (see docs/queue-contract.md, "Side effects"). */
export interface ToolSideEffectFields {
  side_effect: SideEffect;
  /** Paths into the arguments that make a call's identity; null: every argument. */
  dedupe_key: string[] | null;
  dedupe_window_seconds: number;
  notify_cancel: boolean;
}

/** The API fields of a tool as stored: defaults applied, header values in clear. */
export type ToolFields = {
  tool_name: string;
  tool_description: string;
  tool_parameters: ToolParameter[];
} & ToolSideEffectFields &
  (
    | { tool_execution_type: 'webhook'; tool_execution_config: WebhookExecutionConfig }
    | { tool_execution_type: 'static_return'; tool_execution_config: StaticReturnExecutionConfig }
  );

/** JSON Schema of a function's arguments, in the subset every function-calling model accepts. */
export interface ParameterSchema {
  type: ToolParameterType;
  description?: string;
  enum?: string[];
  items?: Record<string, never>;
}

export interface FunctionParametersSchema {
  type: 'object';
  properties: Record<string, ParameterSchema>;
  required: string[];
}

/** A tool as a language model sees it (OpenAI-style function definition). */
export interface FunctionDefinition {
  type: 'function';
  function: {
    name: string;
    description: string;
    parameters: FunctionParametersSchema;
  };
}
