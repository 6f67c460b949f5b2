import { Param, ParseUUIDPipe } from '@nestjs/common';
import { AppException } from '../errors/app.exception';

/** A path parameter that must be a UUID; anything else is a 400 naming the parameter, never a 500. */
export const UuidParam = (name: string) =>
  Param(
    name,
    new ParseUUIDPipe({
      exceptionFactory: () =>
        AppException.validation([{ field: name, message: `${name} must be a UUID` }]),
    }),
  );
