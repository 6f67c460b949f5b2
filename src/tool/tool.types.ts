import type { ToolParameterType } from './tool.constants';

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
