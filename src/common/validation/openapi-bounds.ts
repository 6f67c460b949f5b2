import type { OpenAPIObject } from '@nestjs/swagger';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { classRules } from './rule-storage';

type Schema = Record<string, unknown>;

/** class-validator rule → the OpenAPI keywords it sets, and the schema type they apply to. */
const BOUNDS: Record<string, { type: string[]; keys: string[] }> = {
  min: { type: ['number', 'integer'], keys: ['minimum'] },
  max: { type: ['number', 'integer'], keys: ['maximum'] },
  minLength: { type: ['string'], keys: ['minLength'] },
  maxLength: { type: ['string'], keys: ['maxLength'] },
  isLength: { type: ['string'], keys: ['minLength', 'maxLength'] },
  arrayMinSize: { type: ['array'], keys: ['minItems'] },
  arrayMaxSize: { type: ['array'], keys: ['maxItems'] },
};

/**
 * Writes the bounds of every DTO property (`@Min`, `@Max`, `@Length`, `@ArrayMaxSize`, ...) into
 * its schema from the validation rules themselves, where the schema does not state them yet. The
 * @nestjs/swagger compiler plugin reads the same decorators, but not every bound: read from the
 * rules, the document states each one, a constant imported from another file
 * (`@Max(STRATEGY_TIMEOUT_SECONDS.max)`) included.
 */
export function documentBounds(document: OpenAPIObject): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
  /** Query DTOs are no component: their rules by property name, for the query parameters. */
  const queryRules = new Map<string, ValidationMetadata[]>();
  for (const [target, rules] of classRules()) {
    const properties = schemas[target.name]?.properties as Record<string, Schema> | undefined;
    if (!properties) {
      for (const rule of rules) {
        queryRules.set(rule.propertyName, [...(queryRules.get(rule.propertyName) ?? []), rule]);
      }
      continue;
    }
    for (const rule of rules) {
      const schema = properties[rule.propertyName];
      if (schema) applyBound(schema, rule);
    }
  }
  for (const item of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(item as Record<string, unknown>)) {
      const parameters = (
        operation as { parameters?: { in?: string; name?: string; schema?: Schema }[] }
      )?.parameters;
      for (const parameter of parameters ?? []) {
        if (parameter.in !== 'query' || !parameter.schema || !parameter.name) continue;
        for (const rule of queryRules.get(parameter.name) ?? []) applyBound(parameter.schema, rule);
      }
    }
  }
  return document;
}

/** Sets the keywords of one rule on a property's schema, where the schema does not state them. */
function applyBound(property: Schema, rule: ValidationMetadata): void {
  const bound = rule.name ? BOUNDS[rule.name] : undefined;
  if (!bound) return;
  let schema = property;
  if (rule.each) {
    if (schema.type !== 'array' || !schema.items || typeof schema.items !== 'object') return;
    schema = schema.items as Schema;
  }
  if (!bound.type.includes(schema.type as string)) return;
  bound.keys.forEach((key, i) => {
    const value = (rule.constraints as unknown[] | undefined)?.[i];
    if (typeof value === 'number' && Number.isFinite(value) && schema[key] === undefined) {
      schema[key] = value;
    }
  });
}
