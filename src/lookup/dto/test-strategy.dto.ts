import { ApiProperty } from '@nestjs/swagger';
import { ERROR_CLASSES, type ErrorClass } from '../../contracts/error-class';
import { CallNumbersDto } from '../../common/validation/call-numbers.dto';
import { ValidateUuid } from '../../common/validation/validation';

/**
 * Body of `POST /inbound_context_strategy/test/:strategy_id`. `caller_number` is sent as is
 * (default `+10000000000`); `inbound_number` is sent with its digits kept (default the number of a
 * mapping that uses this strategy, else `10000000000`).
 */
export class TestStrategyDto extends CallNumbersDto {
  /** Assistant whose prompt is previewed; default the assistant of a mapping that uses this strategy. Must be yours. */
  @ValidateUuid({ optional: true, nullable: true })
  assistant_id?: string;
}

export class TestStrategyRequestDto {
  url: string;
  /** Header names sent; values hidden. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  headers: Record<string, string>;
  /** The exact body sent (with `dry_run: true`). */
  @ApiProperty({ type: 'object', additionalProperties: true })
  payload: Record<string, unknown>;
}

export class TestStrategyResultDto {
  @ApiProperty({ enum: ['success', 'error'] })
  status: 'success' | 'error';

  /** `<kind>: <detail>` on error (timeout, http_error, invalid_json, invalid_response, ...). */
  @ApiProperty({ type: String, nullable: true })
  error: string | null;

  /** The class of `error` (`timeout`, `auth`, `http_5xx`, `invalid_response`, ...); null on success. */
  @ApiProperty({ enum: ERROR_CLASSES, nullable: true, type: String })
  error_class: ErrorClass | null;

  /** HTTP status the webhook answered, when it answered. */
  @ApiProperty({ type: Number, nullable: true })
  status_code: number | null;

  latency_ms: number;

  /** Sorted keys of the returned `context`. */
  context_keys: string[];

  /** The returned `context` (your own data, shown only to you). */
  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true })
  context: Record<string, unknown> | null;

  /** True when the call failed and the previews were rendered with the strategy's `fallback_context`. */
  fallback_used: boolean;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  assistant_id: string | null;

  /** The assistant's prompt rendered with this context; null without an assistant. */
  @ApiProperty({ type: String, nullable: true })
  prompt_preview: string | null;

  @ApiProperty({ type: String, nullable: true })
  start_instruction_preview: string | null;

  /** Names of the secrets the request's URL and headers reference (`{{secret.NAME}}`); never their values. */
  @ApiProperty({ type: [String], example: ['CRM_TOKEN'] })
  secrets_used: string[];

  request: TestStrategyRequestDto;
}
