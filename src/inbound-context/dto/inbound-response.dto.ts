import { ApiProperty } from '@nestjs/swagger';
import { INBOUND_SERVICES, type InboundService } from '../inbound-context.constants';
import { InboundPolicyDto } from './inbound-policy.dto';
import {
  ENVIRONMENTS,
  GuardrailDto,
  GuardrailStateDto,
  type MappingEnvironment,
} from './rollout-fields.dto';

export class InboundConfigResponseDto {
  /** As sent. */
  phone_number: string;
}

export class AssistantVariantResponseDto {
  /** A published version; null for the working copy. */
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true, example: 2 })
  assistant_version: number | null;

  /** Share of the callers, in percent. */
  @ApiProperty({ type: 'integer', minimum: 0, maximum: 100, example: 10 })
  weight: number;
}

export class InboundResponseDto {
  inbound_id: string;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  assistant_id: string | null;

  /** The published version of the assistant that lookups render; null for the working copy. */
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true, example: null })
  assistant_version: number | null;

  /** The traffic split over versions of the assistant; null without one. */
  @ApiProperty({ type: [AssistantVariantResponseDto], nullable: true, example: null })
  assistant_variants: AssistantVariantResponseDto[] | null;

  /** `production` takes only checked versions; null: none. */
  @ApiProperty({ enum: ENVIRONMENTS, nullable: true, example: null })
  environment: MappingEnvironment | null;

  /** The split's guardrail; null without one. */
  @ApiProperty({ type: GuardrailDto, nullable: true, example: null })
  guardrail: GuardrailDto | null;

  /** How the guardrail last ended a split; null until it does. */
  @ApiProperty({ type: GuardrailStateDto, nullable: true, example: null })
  guardrail_state: GuardrailStateDto | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  inbound_context_strategy_id: string | null;

  /** Opening hours, closing days, caller rules and the cap on concurrent calls; null without one. */
  @ApiProperty({ type: InboundPolicyDto, nullable: true, example: null })
  policy: InboundPolicyDto | null;

  @ApiProperty({ enum: INBOUND_SERVICES })
  service: InboundService;

  inbound_config: InboundConfigResponseDto;
  /** Digits only; what routing matches on. */
  phone_number_normalized: string;
  is_active: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

export class InboundListDto {
  items: InboundResponseDto[];
  total: number;
  page: number;
  limit: number;
}

export class InboundDeletedDto {
  inbound_id: string;
}
