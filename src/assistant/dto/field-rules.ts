import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import {
  IsDefined,
  IsOptional,
  ValidateBy,
  ValidateIf,
  isIn,
  isObject,
  isString,
} from 'class-validator';
import { isCharLength } from '../../common/validation/validators';

type Plain = Record<string, unknown>;

const absent = (value: unknown): boolean => value === undefined || value === null;

/**
 * A field required only in some states of its siblings (`assistant_tts_config` in pipeline mode,
 * `assistant_end_call_trigger_phrase` when end-call is enabled): when it is missing (`null`
 * counts as missing) and `when(object)` holds, the one error names the reason. Pair it with the
 * `IfPresent*` rules below, which skip a missing value, so a missing field gets that one message
 * rather than one per rule.
 */
export function RequiredWhen(when: (object: Plain) => boolean, reason: string) {
  return applyDecorators(
    ValidateIf((object: Plain, value: unknown) => !absent(value) || when(object)),
    IsDefined({ message: `$property is required ${reason}` }),
  );
}

/** A string of `min`-`max` characters, when present. */
export function IfPresentIsText(min: number, max: number) {
  return ValidateBy({
    name: 'isText',
    constraints: [min, max],
    validator: {
      validate: (value: unknown) => absent(value) || isCharLength(value, min, max),
      defaultMessage: (args) =>
        isString(args?.value)
          ? min > 0
            ? `$property must be ${min}-${max} characters long`
            : `$property must be at most ${max} characters long`
          : '$property must be a string',
    },
  });
}

/** One of `values`, when present. */
export function IfPresentIsIn(values: readonly string[]) {
  return ValidateBy({
    name: 'isIn',
    constraints: [values],
    validator: {
      validate: (value: unknown) => absent(value) || isIn(value, values),
      defaultMessage: () => `$property must be one of the following values: ${values.join(', ')}`,
    },
  });
}

/** A JSON object (not an array), when present. */
export function IfPresentIsObject() {
  return ValidateBy({
    name: 'isObject',
    validator: {
      validate: (value: unknown) => absent(value) || isObject(value),
      defaultMessage: () => '$property must be an object',
    },
  });
}

/**
 * A text field with one error per failure: missing (when required), not a string, or out of
 * `min`-`max` characters. Documents the bounds in Swagger as well.
 */
export function IsText(min: number, max: number, options: { optional?: boolean } = {}) {
  return applyDecorators(
    ApiProperty({ type: String, minLength: min, maxLength: max, required: !options.optional }),
    options.optional ? IsOptional() : IsDefined({ message: '$property is required' }),
    IfPresentIsText(min, max),
  );
}
