import type { ClassConstructor } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppException } from '../errors/app.exception';
import { flattenValidationErrors } from './validation-errors';

/** The options the global ValidationPipe uses; services re-validating merged records use the same. */
export const VALIDATOR_OPTIONS = {
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  // One message per field: the first rule it breaks (a missing field is "must be a string", not
  // also "must be 1-100 characters long").
  stopAtFirstError: true,
  // `value` tells an array's children (`[0]`) from an object key named "0"; it never reaches a response.
  validationError: { target: false, value: true },
} as const;

/**
 * Validates a plain object against a DTO class exactly as a request body would be, and returns
 * the transformed instance; throws the same 400 (`data.errors[{field, message}]`) on failure.
 */
export async function validateOrThrow<T extends object>(
  cls: ClassConstructor<T>,
  plain: unknown,
): Promise<T> {
  const instance = plainToInstance(cls, plain ?? {}, { enableImplicitConversion: false });
  const errors = await validate(instance, VALIDATOR_OPTIONS);
  if (errors.length) throw AppException.validation(flattenValidationErrors(errors));
  return instance;
}
