import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { STRATEGY_TYPES, type StrategyType } from '../inbound-context.constants';

export class StrategyConfigResponseDto {
  url: string;

  /** Sensitive values (authorization, token, secret, api-key, password, cookie, key...) shown as `****`. */
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string' },
    example: { Authorization: '****' },
  })
  headers: Record<string, string>;

  /** Seconds. */
  timeout_seconds: number;

  /** Present when set: what a failed lookup renders with. */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { name: 'there', tier: 'standard' },
  })
  fallback_context?: Record<string, unknown>;
}

export class StrategyResponseDto {
  strategy_id: string;
  strategy_name: string;

  @ApiProperty({ enum: STRATEGY_TYPES })
  strategy_type: StrategyType;

  strategy_config: StrategyConfigResponseDto;
  is_active: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

export class StrategyListDto {
  items: StrategyResponseDto[];
  total: number;
  page: number;
  limit: number;
}

export class StrategyDeletedDto {
  strategy_id: string;
  /** Inbound mappings that used this strategy and now have none. */
  detached_mappings: number;
}
