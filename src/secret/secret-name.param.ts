import { Param } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { SECRET_NAME_PATTERN } from '../common/secrets/secret-reference';

/** `:secret_name`: a valid name, else a 400 naming the parameter. */
export const SecretNameParam = () =>
  Param('secret_name', {
    transform(value: unknown): string {
      if (typeof value === 'string' && SECRET_NAME_PATTERN.test(value)) return value;
      throw AppException.validation([
        {
          field: 'secret_name',
          message: 'secret_name must match ^[A-Z][A-Z0-9_]{0,63}$ (upper-case letters, digits, _)',
        },
      ]);
    },
  });
