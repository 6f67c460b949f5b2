import { applyDecorators } from '@nestjs/common';
import { ValidateBy } from 'class-validator';

export const SECRET_VALUE_MAX_LENGTH = 8192;

/** Control characters (CR, LF, NUL…): a value goes into header values, URLs and provider keys. */
// eslint-disable-next-line no-control-regex -- control characters are what this refuses
const CONTROL = /[\u0000-\u001f\u007f]/;

/**
 * A secret value: a string of 1-8192 characters (code points) without control characters. The
 * messages never quote the value.
 */
export function IsSecretValue(): PropertyDecorator {
  return applyDecorators(
    ValidateBy({
      name: 'isSecretValue',
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' &&
          [...value].length >= 1 &&
          [...value].length <= SECRET_VALUE_MAX_LENGTH &&
          !CONTROL.test(value),
        defaultMessage: (args) => {
          const value: unknown = args?.value;
          if (value === undefined || value === null) return '$property is required';
          if (typeof value !== 'string') return '$property must be a string';
          if (CONTROL.test(value)) return '$property must not hold control characters';
          return `$property must be 1-${SECRET_VALUE_MAX_LENGTH} characters long`;
        },
      },
    }),
  );
}
