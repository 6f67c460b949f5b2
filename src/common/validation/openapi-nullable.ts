import type { OpenAPIObject } from '@nestjs/swagger';
import { ValidationTypes } from 'class-validator';
import { classRules } from './rule-storage';

type SchemaObject = {
  type?: string;
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

/**
 * Marks as `nullable` every body property whose rule is `@IsOptional()`, the one rule that lets
 * `null` through (an optional field sent as null counts as absent; on an update it clears the
 * field or resets it to its default). The validation rules stay the one place that says what a
 * body may hold, and the document follows them: a property that refuses `null`
 * (`ValidateIf(value !== undefined)`) stays non-nullable. Update DTOs derived with `PartialType`
 * carry `@IsOptional()` on every inherited property, and are read the same way.
 */
export function documentNullability(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const [target, rules] of classRules()) {
    const schema = schemas[target.name];
    if (!schema?.properties) continue;
    const optional = new Set(
      rules
        .filter(
          (rule) =>
            rule.type === ValidationTypes.CONDITIONAL_VALIDATION && rule.name === 'isOptional',
        )
        .map((rule) => rule.propertyName),
    );
    for (const [name, property] of Object.entries(schema.properties)) {
      if (!optional.has(name) || schema.required?.includes(name) || property.nullable) continue;
      if (typeof property.$ref === 'string') {
        // A `$ref` ignores its siblings in OpenAPI 3.0: wrap it to say "this, or null".
        const { $ref, ...rest } = property;
        schema.properties[name] = { ...rest, nullable: true, allOf: [{ $ref }] };
      } else {
        property.nullable = true;
      }
    }
  }
  // OpenAPI 3.0 defines `nullable` only beside a `type`: give composed schemas theirs.
  for (const schema of Object.values(schemas)) {
    for (const property of Object.values(schema.properties ?? {})) {
      if (property.nullable === true && property.type === undefined) {
        const type = typeOf(property, schemas);
        if (type) property.type = type;
      }
    }
  }
  return document;
}

/** The one `type` a schema, its `$ref` or every member of its composition has, if any. */
function typeOf(
  schema: Record<string, unknown>,
  schemas: Record<string, SchemaObject>,
): string | undefined {
  if (typeof schema.type === 'string') return schema.type;
  if (typeof schema.$ref === 'string') {
    const target = schemas[schema.$ref.replace('#/components/schemas/', '')];
    return target ? typeOf(target, schemas) : undefined;
  }
  for (const key of ['allOf', 'oneOf', 'anyOf']) {
    const members = schema[key];
    if (!Array.isArray(members) || members.length === 0) continue;
    const types = new Set(
      (members as Record<string, unknown>[])
        .filter((member) => !(member.nullable === true && Array.isArray(member.enum)))
        .map((member) => typeOf(member, schemas)),
    );
    if (types.size === 1) return [...types][0];
  }
  return undefined;
}

/** Keys that describe a schema without constraining the value: they stay beside a `oneOf`. */
const ANNOTATIONS = new Set([
  'description',
  'example',
  'default',
  'title',
  'readOnly',
  'writeOnly',
]);

/** The schema `null` alone matches: no `type` (so `nullable` is not needed), one value. */
export const NULL_SCHEMA = { enum: [null] } as const;

/**
 * Rewrites every `nullable: true` schema so that OpenAPI 3.0.3's strict reading allows `null`
 * there, the reading strict validators (Prism, Portman's contract tests) apply: `nullable` only
 * adds null to the `type` beside it, and every other keyword must allow null on its own. So a
 * composition (`allOf: [{$ref}]`, `oneOf`) becomes `oneOf: [<members>, {enum: [null]}]`, because
 * a `$ref`'d schema refuses null whatever its siblings say, and a nullable `enum` becomes
 * `oneOf: [{type, enum: <values>}, {enum: [null]}]`. Null is never listed beside other values
 * or next to `nullable`: Prism (5.x) then stops validating the whole operation, silently.
 */
export function strictNullability(document: OpenAPIObject): OpenAPIObject {
  visitSchemas(document, (schema) => {
    if (schema.nullable !== true) return schema;
    const annotations = Object.fromEntries(
      Object.entries(schema).filter(([key]) => ANNOTATIONS.has(key)),
    );
    const members = compositionMembers(schema);
    if (members) {
      const key = Array.isArray(schema.anyOf) ? 'anyOf' : 'oneOf';
      return { ...annotations, [key]: [...members, NULL_SCHEMA] };
    }
    if (Array.isArray(schema.enum)) {
      const values = (schema.enum as unknown[]).filter((value) => value !== null);
      const rest = Object.fromEntries(
        Object.entries(schema).filter(
          ([key]) => !ANNOTATIONS.has(key) && key !== 'nullable' && key !== 'enum',
        ),
      );
      return { ...annotations, oneOf: [{ ...rest, enum: values }, NULL_SCHEMA] };
    }
    return schema;
  });
  return document;
}

/** The alternatives a nullable composed schema stands for, or undefined when it is not composed. */
function compositionMembers(schema: Record<string, unknown>): unknown[] | undefined {
  const { allOf, oneOf, anyOf } = schema as Record<string, unknown[] | undefined>;
  if (Array.isArray(oneOf)) return oneOf;
  if (Array.isArray(anyOf)) return anyOf;
  if (Array.isArray(allOf)) return allOf.length === 1 ? allOf : [{ allOf }];
  return undefined;
}

/** Where schemas live in a document: components, parameters, request bodies and responses. */
function visitSchemas(
  document: OpenAPIObject,
  rewrite: (schema: Record<string, unknown>) => Record<string, unknown>,
): void {
  const walk = (schema: unknown): unknown => {
    if (!schema || typeof schema !== 'object' || Array.isArray(schema)) return schema;
    const node = rewrite({ ...(schema as Record<string, unknown>) });
    for (const key of ['items', 'additionalProperties', 'not']) {
      if (node[key] && typeof node[key] === 'object') node[key] = walk(node[key]);
    }
    for (const key of ['allOf', 'oneOf', 'anyOf']) {
      if (Array.isArray(node[key])) node[key] = (node[key] as unknown[]).map(walk);
    }
    if (node.properties && typeof node.properties === 'object') {
      node.properties = Object.fromEntries(
        Object.entries(node.properties as Record<string, unknown>).map(([name, value]) => [
          name,
          walk(value),
        ]),
      );
    }
    return node;
  };
  const schemas = (document.components?.schemas ?? {}) as Record<string, unknown>;
  for (const name of Object.keys(schemas)) schemas[name] = walk(schemas[name]);
  type Content = Record<string, { schema?: unknown }> | undefined;
  const inContent = (content: Content) => {
    for (const media of Object.values(content ?? {})) {
      if (media.schema) media.schema = walk(media.schema);
    }
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      if (!operation || typeof operation !== 'object') continue;
      const op = operation as {
        parameters?: { schema?: unknown }[];
        requestBody?: { content?: Content };
        responses?: Record<string, { content?: Content }>;
      };
      for (const parameter of op.parameters ?? []) {
        if (parameter.schema) parameter.schema = walk(parameter.schema);
      }
      inContent(op.requestBody?.content);
      for (const response of Object.values(op.responses ?? {})) inContent(response.content);
    }
  }
}
