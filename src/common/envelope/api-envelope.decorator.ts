import { applyDecorators, type Type } from '@nestjs/common';
import {
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  getSchemaPath,
  type ApiOperationOptions,
} from '@nestjs/swagger';
import { ERROR_STATUSES } from '../errors/error-statuses';
import { ERROR_ENVELOPE } from './openapi-error-responses';
import { ResponseMessage } from './response-message.decorator';

interface EnvelopeOptions {
  status?: number;
  description?: string;
  isArray?: boolean;
}

/**
 * Documents a success response as the envelope with `data` typed by `model`, so Swagger shows the
 * real payload instead of `object`.
 */
export function ApiEnvelopeResponse(model: Type<unknown> | null, options: EnvelopeOptions = {}) {
  const dataSchema = model
    ? options.isArray
      ? { type: 'array', items: { $ref: getSchemaPath(model) } }
      : { $ref: getSchemaPath(model) }
    : { type: 'object', nullable: true };
  return applyDecorators(
    ...(model ? [ApiExtraModels(model)] : []),
    ApiResponse({
      status: options.status ?? 200,
      description: options.description ?? 'Success',
      schema: {
        type: 'object',
        required: ['success', 'message', 'data'],
        properties: {
          success: { type: 'boolean', example: true },
          message: { type: 'string' },
          data: dataSchema,
        },
      },
    }),
  );
}

/**
 * Documents error statuses a route answers beyond those its inputs and protection imply (e.g. 409);
 * `documentErrorResponses` adds the rest, each as the error envelope with a real example.
 */
export function ApiEnvelopeErrors(...statuses: number[]) {
  return applyDecorators(
    ...statuses.map((status) =>
      ApiResponse({
        status,
        description: ERROR_STATUSES[status]?.description ?? 'Error',
        schema: { $ref: getSchemaPath(ERROR_ENVELOPE) },
      }),
    ),
  );
}

interface ApiRouteOptions extends ApiOperationOptions {
  /** Description of the success response (`Success` when not given). */
  response?: string;
  /** Error statuses beyond those its inputs and protection imply (see `ApiEnvelopeErrors`). */
  errors?: number[];
}

/**
 * One route of the envelope: its operation, the success `message` and the envelope typed by
 * `model`, in one decorator instead of four. Comment such a route with `//`: the Swagger plugin
 * (introspectComments) makes a JSDoc on it an `ApiOperation` of its own, whose summary would win.
 */
export function ApiRoute(
  model: Type<unknown> | null,
  message: string,
  { response, errors = [], ...operation }: ApiRouteOptions,
) {
  return applyDecorators(
    ResponseMessage(message),
    ApiOperation(operation),
    ApiEnvelopeResponse(model, { description: response }),
    ApiEnvelopeErrors(...errors),
  );
}
