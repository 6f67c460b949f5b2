import { ApiProperty } from '@nestjs/swagger';
import { IsInt, IsNumber, Max, Min } from 'class-validator';

export const ENVIRONMENTS = ['production', 'staging'] as const;
export type MappingEnvironment = (typeof ENVIRONMENTS)[number];

/** When a split's variant fails too often, the split ends on its first variant (the control). */
export class GuardrailDto {
  /** The failed share of a variant's calls above which the split ends (0-1). */
  @ApiProperty({ type: 'number', minimum: 0, maximum: 1, example: 0.2 })
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(1)
  max_error_rate: number;

  /** Calls a variant needs in the window before it is judged. */
  @ApiProperty({ type: 'integer', minimum: 1, maximum: 10000, example: 20 })
  @IsInt()
  @Min(1)
  @Max(10000)
  min_lookups: number;

  /** How far back its calls count, in seconds. */
  @ApiProperty({ type: 'integer', minimum: 60, maximum: 86400, example: 3600 })
  @IsInt()
  @Min(60)
  @Max(86400)
  window_seconds: number;
}

/** How a guardrail ended a split. */
export class GuardrailStateDto {
  /** ISO 8601, UTC. */
  reverted_at: string;
  /** The index of the variant that failed. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  variant: number;
  @ApiProperty({ type: 'number', minimum: 0, maximum: 1 })
  error_rate: number;
  /** Its calls in the window. */
  @ApiProperty({ type: 'integer', minimum: 1 })
  lookups: number;
}

export type Guardrail = Pick<GuardrailDto, 'max_error_rate' | 'min_lookups' | 'window_seconds'>;
export type GuardrailState = Pick<
  GuardrailStateDto,
  'reverted_at' | 'variant' | 'error_rate' | 'lookups'
>;
