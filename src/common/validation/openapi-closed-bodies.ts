import type { OpenAPIObject } from '@nestjs/swagger';

type Schema = Record<string, unknown>;

const REF_PREFIX = '#/components/schemas/';

/**
 * Closes every object schema a request body reaches (`additionalProperties: false`), through
 * `$ref`s, compositions, array items and nested properties: the validation pipe refuses unknown
 * fields (`forbidNonWhitelisted`) with a 400, and the document says so. Schemas that already say
 * what extra keys may hold (free-form maps such as `headers` or `context`) keep their own rule.
 */
export function closeRequestBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  const seen = new Set<Schema>();
  const close = (schema: unknown): void => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return;
    const node = schema as Schema;
    if (seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === 'string') {
      close(schemas[node.$ref.slice(REF_PREFIX.length)]);
      return;
    }
    if (node.properties && typeof node.properties === 'object') {
      if (node.additionalProperties === undefined) node.additionalProperties = false;
      for (const property of Object.values(node.properties as Record<string, unknown>)) {
        close(property);
      }
    }
    if (node.items) close(node.items);
    for (const key of ['oneOf', 'anyOf']) {
      if (Array.isArray(node[key])) (node[key] as unknown[]).forEach(close);
    }
    // Members of an allOf are each checked against the whole value: closing one would refuse
    // the other members' properties, so an allOf of object schemas is left as it is.
    if (Array.isArray(node.allOf) && node.allOf.length === 1) close(node.allOf[0]);
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      const body = (
        operation as { requestBody?: { content?: Record<string, { schema?: unknown }> } }
      )?.requestBody;
      for (const media of Object.values(body?.content ?? {})) close(media.schema);
    }
  }
  return document;
}
