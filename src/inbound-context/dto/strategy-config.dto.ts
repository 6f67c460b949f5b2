import { ApiPropertyOptional, OmitType, PartialType } from '@nestjs/swagger';
import { IsNumber, Max, Min } from 'class-validator';
import {
  Optional,
  ValidateHeaders,
  ValidateHttpUrl,
  ValidateJsonObject,
} from '../../common/validation/validation';
import {
  STRATEGY_FALLBACK_CONTEXT_MAX_BYTES,
  STRATEGY_MAX_HEADERS,
  STRATEGY_URL_MAX_LENGTH,
} from '../inbound-context.constants';
import { STRATEGY_TIMEOUT_SECONDS } from '../../contracts/limits';

export class StrategyConfigDto {
  /** The webhook the service POSTs the call details to (http or https, at most 500 characters). */
  @ValidateHttpUrl(STRATEGY_URL_MAX_LENGTH)
  url: string;

  /** Custom headers sent with every lookup. Sensitive values are returned as `****`. */
  @ApiPropertyOptional({ example: { Authorization: 'Bearer sk_live_...', 'X-Tenant': 'acme' } })
  @ValidateHeaders({ max: STRATEGY_MAX_HEADERS, optional: true, nullable: true })
  headers?: Record<string, string>;

  /** Total time allowed for the webhook call, in seconds (0.5-10, default 2). */
  @Optional({ nullable: true })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(STRATEGY_TIMEOUT_SECONDS.min)
  @Max(STRATEGY_TIMEOUT_SECONDS.max)
  timeout_seconds?: number;

  /**
   * Rendered into the prompt and start instruction in place of the webhook's `context` when a
   * lookup fails (timeout, HTTP error, invalid answer, inactive strategy, missing URL, expired).
   * A JSON object of at most 16 KB; on an update `null` removes it.
   */
  @ApiPropertyOptional({ example: { name: 'there', tier: 'standard' } })
  @ValidateJsonObject(STRATEGY_FALLBACK_CONTEXT_MAX_BYTES, { optional: true, nullable: true })
  fallback_context?: Record<string, unknown> | null;
}

/**
 * A config patch: `url`, `timeout_seconds` and `fallback_context` replace; `headers` merge key by
 * key. A strategy always has a URL, so `null` there is refused, not stored.
 */
export class UpdateStrategyConfigDto extends PartialType(
  OmitType(StrategyConfigDto, ['headers'] as const),
  { skipNullProperties: false },
) {
  /** Merged into the stored headers: a value replaces, `null` deletes the header, `****` keeps the stored value. */
  @ApiPropertyOptional({ example: { Authorization: '****', 'X-Old': null } })
  @ValidateHeaders({ max: STRATEGY_MAX_HEADERS, allowNull: true, optional: true, nullable: true })
  headers?: Record<string, string | null>;
}
