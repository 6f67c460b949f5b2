import type { ValidationError } from 'class-validator';
import type { FieldError } from '../errors/app.exception';

function joinPath(parent: string, property: string, inArray: boolean): string {
  if (inArray) return `${parent}[${property}]`;
  return parent ? `${parent}.${property}` : property;
}

/**
 * Flattens class-validator's tree into `{field, message}` pairs whose `field` is the full path
 * (`assistant_tts_config.voice_id`, `tool_parameters[1].enum`). Messages are prefixed by
 * class-validator with the leaf property name only, so the path is the part a client can trust.
 */
export function flattenValidationErrors(
  errors: ValidationError[],
  parent = '',
  parentIsArray = false,
): FieldError[] {
  const out: FieldError[] = [];
  for (const error of errors) {
    const field = joinPath(parent, error.property, parentIsArray);
    for (const message of Object.values(error.constraints ?? {})) {
      out.push({
        field,
        message: message.replace(/^property (\S+) should not exist$/, 'unknown field'),
      });
    }
    if (error.children?.length) {
      out.push(...flattenValidationErrors(error.children, field, Array.isArray(error.value)));
    }
  }
  return out;
}
