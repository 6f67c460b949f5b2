import { END_CALL_FUNCTION_NAME } from './tool.constants';
import type {
  FunctionDefinition,
  FunctionParametersSchema,
  ParameterSchema,
  ToolParameter,
} from './tool.types';

/** JSON Schema (the subset OpenAI, Gemini and other function-calling models accept) for a tool's arguments. */
export function parametersSchema(parameters: readonly ToolParameter[]): FunctionParametersSchema {
  const properties: Record<string, ParameterSchema> = {};
  const required: string[] = [];
  for (const parameter of parameters) {
    const schema: ParameterSchema = { type: parameter.type };
    if (parameter.description !== undefined) schema.description = parameter.description;
    if (parameter.type === 'string' && parameter.enum !== undefined)
      schema.enum = [...parameter.enum];
    // Items of any type: parameters carry no item type.
    if (parameter.type === 'array') schema.items = {};
    properties[parameter.name] = schema;
    if (parameter.required !== false) required.push(parameter.name);
  }
  return { type: 'object', properties, required };
}

/** A tool as a language-model function definition. */
export function toFunctionDefinition(tool: {
  tool_name: string;
  tool_description: string;
  tool_parameters: readonly ToolParameter[];
}): FunctionDefinition {
  return {
    type: 'function',
    function: {
      name: tool.tool_name,
      description: tool.tool_description,
      parameters: parametersSchema(tool.tool_parameters),
    },
  };
}

/**
 * The built-in end-call function added to an assistant with `assistant_end_call_enabled`. The model
 * learns when to call it from the trigger phrase; it takes no arguments.
 */
export function endCallFunctionDefinition(
  triggerPhrase: string | null | undefined,
): FunctionDefinition {
  const phrase = triggerPhrase?.trim();
  const when = phrase
    ? `Call this when the caller says "${phrase}" or something with the same meaning, or otherwise clearly wants to end the call.`
    : 'Call this when the caller clearly wants to end the call.';
  return {
    type: 'function',
    function: {
      name: END_CALL_FUNCTION_NAME,
      description: `Ends the current call. ${when} Do not call it for any other reason.`,
      parameters: { type: 'object', properties: {}, required: [] },
    },
  };
}
