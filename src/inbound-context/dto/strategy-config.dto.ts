import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsNumber, IsOptional, Max, Min, ValidateIf } from 'class-validator';
import { IsHttpHeaders } from '../../common/http/header-validators';
import { IsHttpUrl, IsJsonObject } from '../../common/validation/validators';
import {
  STRATEGY_FALLBACK_CONTEXT_MAX_BYTES,
  STRATEGY_MAX_HEADERS,
  STRATEGY_TIMEOUT_SECONDS,
  STRATEGY_URL_MAX_LENGTH,
} from '../inbound-context.constants';

export class StrategyConfigDto {
  /** The webhook the service POSTs the call details to (http or https, at most 500 characters). */
  @IsHttpUrl(STRATEGY_URL_MAX_LENGTH)
  url: string;

  /** Custom headers sent with every lookup. Sensitive values are returned as `****`. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Authorization: 'Bearer sk_live_...', 'X-Tenant': 'acme' },
  })
  @IsOptional()
  @IsHttpHeaders({ maxEntries: STRATEGY_MAX_HEADERS })
  headers?: Record<string, string>;

  /** Total time allowed for the webhook call, in seconds (0.5-10, default 2). */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(STRATEGY_TIMEOUT_SECONDS.min)
  @Max(STRATEGY_TIMEOUT_SECONDS.max)
  timeout_seconds?: number;

  /**
   * Rendered into the prompt and start instruction in place of the webhook's `context` when a
   * lookup fails (timeout, HTTP error, invalid answer, inactive strategy, missing URL, expired).
   * A JSON object of at most 16 KB.
   */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { name: 'there', tier: 'standard' },
  })
  @IsOptional()
  @IsJsonObject(STRATEGY_FALLBACK_CONTEXT_MAX_BYTES)
  fallback_context?: Record<string, unknown>;
}

/** A config patch: `url` and `timeout_seconds` replace; `headers` merge key by key (`null` deletes, `****` keeps). */
export class UpdateStrategyConfigDto {
  /** Replaces the webhook URL. A strategy always has one: `null` is refused, not stored. */
  @ValidateIf((_object: object, value: unknown) => value !== undefined)
  @IsHttpUrl(STRATEGY_URL_MAX_LENGTH)
  url?: string;

  /** Merged into the stored headers: a value replaces, `null` deletes the header, `****` keeps the stored value. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: { type: 'string', nullable: true },
    example: { Authorization: '****', 'X-Old': null },
  })
  @IsOptional()
  @IsHttpHeaders({ maxEntries: STRATEGY_MAX_HEADERS, allowNull: true })
  headers?: Record<string, string | null>;

  /** Replaces the timeout (0.5-10 seconds). */
  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(STRATEGY_TIMEOUT_SECONDS.min)
  @Max(STRATEGY_TIMEOUT_SECONDS.max)
  timeout_seconds?: number;

  /** Replaces the fallback context; `null` removes it. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    example: { name: 'there' },
  })
  @IsOptional()
  @IsJsonObject(STRATEGY_FALLBACK_CONTEXT_MAX_BYTES)
  fallback_context?: Record<string, unknown> | null;
}
