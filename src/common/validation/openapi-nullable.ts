import type { OpenAPIObject } from '@nestjs/swagger';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';

/** The part of class-validator's storage this reads: every class that declares a rule. */
interface RuleStorage {
  validationMetadatas: Map<new (...args: never[]) => unknown, ValidationMetadata[]>;
  getTargetValidationMetadatas(
    target: new (...args: never[]) => unknown,
    schema: string,
    always: boolean,
    strictGroups: boolean,
  ): ValidationMetadata[];
}

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
  const storage = getMetadataStorage() as unknown as RuleStorage;
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaObject>;
  for (const target of storage.validationMetadatas.keys()) {
    const schema = schemas[target.name];
    if (!schema?.properties) continue;
    const optional = new Set(
      storage
        .getTargetValidationMetadatas(target, '', true, false)
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
