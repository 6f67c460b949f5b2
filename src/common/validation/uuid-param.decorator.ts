import { Param, ParseUUIDPipe } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import { AppException } from '../errors/app.exception';

/**
 * A path parameter that must be a UUID; anything else is a 400 naming the parameter, never a 500.
 * The OpenAPI document says so too (`format: uuid`), so clients, validators and the MCP tools'
 * input schemas read the same rule.
 */
export const UuidParam =
  (name: string): ParameterDecorator =>
  (target, key, index) => {
    Param(
      name,
      new ParseUUIDPipe({
        exceptionFactory: () =>
          AppException.validation([{ field: name, message: `${name} must be a UUID` }]),
      }),
    )(target, key, index);
    if (key === undefined) return;
    const descriptor = Object.getOwnPropertyDescriptor(target, key);
    if (descriptor)
      ApiParam({ name, required: true, schema: { type: 'string', format: 'uuid' } })(
        target,
        key,
        descriptor,
      );
  };
