import { applyDecorators, type Type } from '@nestjs/common';
import { ApiExtraModels, ApiProperty, ApiResponse, getSchemaPath } from '@nestjs/swagger';

export class FieldErrorDto {
  /** Full path of the field at fault, e.g. `assistant_tts_config.voice_id`. */
  field: string;
  message: string;
}

export class ErrorDataDto {
  /** Present on 400 validation failures. */
  @ApiProperty({ type: [FieldErrorDto], required: false })
  errors?: FieldErrorDto[];

  /** Present on 500s: quote it when reporting the problem; the same id is in the service log. */
  error_id?: string;
}

export class ErrorEnvelopeDto {
  @ApiProperty({ example: false })
  success: boolean;

  @ApiProperty({ example: 'Validation failed' })
  message: string;

  @ApiProperty({ type: ErrorDataDto, nullable: true })
  data: ErrorDataDto | null;
}

const ERROR_DESCRIPTIONS: Record<number, string> = {
  400: 'Validation failed; `data.errors` names each field',
  401: 'Missing or invalid Bearer API key',
  404: 'Not found, or not visible to this API key',
  409: 'Conflicts with an existing record',
  413: 'Request body over 1 MB',
  422: 'Body is not parseable JSON or not a JSON object',
  429: 'Rate limit exceeded; see Retry-After',
  500: 'Unexpected error; `data.error_id` identifies it in the service log',
  503: 'A dependency is unavailable',
};

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

/** Documents the error envelopes a route can answer with. 401 and 500 are implied on every protected route. */
export function ApiEnvelopeErrors(...statuses: number[]) {
  const all = Array.from(new Set([...statuses, 401, 500])).sort();
  return applyDecorators(
    ApiExtraModels(ErrorEnvelopeDto),
    ...all.map((status) =>
      ApiResponse({ status, description: ERROR_DESCRIPTIONS[status] ?? 'Error', type: ErrorEnvelopeDto }),
    ),
  );
}
