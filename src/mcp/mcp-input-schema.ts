import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

/** A tool's REST route, as the OpenAPI document names it (`/assistant/details/{assistant_id}`). */
export interface McpRoute {
  method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  path: string;
}

/** An MCP tool's `inputSchema`: a JSON Schema object, its referenced DTOs under `$defs`. */
export interface McpInputSchema {
  type: 'object';
  properties: Record<string, Schema>;
  required?: string[];
  additionalProperties?: unknown;
  $defs?: Record<string, Schema>;
  [keyword: string]: unknown;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
}

const COMPONENT = '#/components/schemas/';
const DEF = '#/$defs/';

/**
 * OpenAPI 3.0's schema dialect as JSON Schema (what MCP advertises), with OpenAPI 3.0.3's strict
 * reading of `nullable` that the document is written for (it adds `null` to the `type` beside it,
 * nothing else: the document spells out every other null branch), a boolean
 * `exclusiveMinimum`/`exclusiveMaximum` as its bound, component `$ref`s pointing into `$defs`, and
 * no `example` (no JSON Schema keyword). Every other keyword means the same in both.
 */
function toJsonSchema(node: unknown, refs: Set<string>): unknown {
  if (Array.isArray(node)) return node.map((item) => toJsonSchema(item, refs));
  if (!node || typeof node !== 'object') return node;
  const { nullable, example: _example, ...rest } = node as Schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === '$ref' && typeof value === 'string' && value.startsWith(COMPONENT)) {
      const name = value.slice(COMPONENT.length);
      refs.add(name);
      out.$ref = `${DEF}${name}`;
    } else if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, child]) => [name, toJsonSchema(child, refs)]),
      );
    } else out[key] = toJsonSchema(value, refs);
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof out[flag] !== 'boolean') continue;
    if (out[flag] && typeof out[bound] === 'number') {
      out[flag] = out[bound];
      delete out[bound];
    } else delete out[flag];
  }
  if (nullable === true && typeof out.type === 'string') out.type = [out.type, 'null'];
  return out;
}

/** The operation of `route` in the document; a tool naming a route the document lacks is a bug. */
function operationOf(document: OpenAPIObject, route: McpRoute): Operation {
  const item = document.paths?.[route.path] as Record<string, Operation> | undefined;
  const operation = item?.[route.method];
  if (!operation)
    throw new Error(`MCP: ${route.method.toUpperCase()} ${route.path} is not in the document`);
  return operation;
}

/**
 * A tool's input schema read from its route's operation in the app's OpenAPI document: the path
 * and query parameters and the JSON body's properties side by side, with their rules (required
 * fields, enums, lengths, formats, bounds) as the document states them, which it reads from the
 * DTOs' validation rules. The DTOs stay the one place the rules are written; the server checks
 * every call with them again (`validateOrThrow`).
 */
export function inputSchemaOf(document: OpenAPIObject, route: McpRoute): McpInputSchema {
  const operation = operationOf(document, route);
  const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const refs = new Set<string>();
  const properties: Record<string, Schema> = {};
  const required: string[] = [];
  for (const parameter of operation.parameters ?? []) {
    if (parameter.in !== 'path' && parameter.in !== 'query') continue;
    const description = parameter.description ? { description: parameter.description } : {};
    properties[parameter.name] = {
      ...(toJsonSchema(parameter.schema ?? {}, refs) as Schema),
      ...description,
    };
    if (parameter.required) required.push(parameter.name);
  }
  let body = operation.requestBody?.content?.['application/json']?.schema;
  if (typeof body?.$ref === 'string') body = components[body.$ref.slice(COMPONENT.length)];
  const own = toJsonSchema(body ?? {}, refs) as Schema;
  Object.assign(properties, own.properties ?? {});
  required.push(...((own.required as string[] | undefined) ?? []));
  const defs: Record<string, Schema> = {};
  // Each referenced DTO once, with the DTOs it references in turn.
  for (const name of refs) {
    if (!(name in defs)) defs[name] = toJsonSchema(components[name] ?? {}, refs) as Schema;
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    // The server refuses a field its DTO does not name, as the routes do (`forbidNonWhitelisted`).
    additionalProperties: false,
    ...(Object.keys(defs).length > 0 ? { $defs: defs } : {}),
  };
}
