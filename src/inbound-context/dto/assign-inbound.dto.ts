import { ApiProperty, PartialType } from '@nestjs/swagger';
import { IsBoolean, IsInt, Max, Min } from 'class-validator';
import { MAX_ASSISTANT_VERSION } from '../../assistant/dto/assistant-version.dto';
import {
  Optional,
  ValidateEnum,
  ValidateNestedObject,
  ValidateUuid,
} from '../../common/validation/validation';
import { INBOUND_SERVICES, type InboundService } from '../inbound-context.constants';
import {
  AssistantVariantDto,
  ExclusiveWith,
  ValidateAssistantVariants,
} from './assistant-variant.dto';
import { InboundConfigDto } from './inbound-config.dto';
import { InboundPolicyDto } from './inbound-policy.dto';
import { ENVIRONMENTS, GuardrailDto, type MappingEnvironment } from './rollout-fields.dto';

export class AssignInboundDto {
  /** The assistant that answers calls to this number; must be yours. */
  @ValidateUuid()
  assistant_id: string;

  /**
   * A published version of the assistant (`POST /assistant/publish/:assistant_id`) that lookups
   * render; null or absent: the working copy (on an update, a new `assistant_id` without it resets
   * the pin). Must exist (404 otherwise). Not with `assistant_variants`; on an update a pin
   * replaces a split.
   */
  @ApiProperty({ type: 'integer', minimum: 1, example: 2 })
  @Optional({ nullable: true })
  @IsInt()
  @Min(1)
  @Max(MAX_ASSISTANT_VERSION)
  @ExclusiveWith('assistant_variants')
  assistant_version?: number | null;

  /**
   * A traffic split: 2-5 `{assistant_version, weight}` (versions of this assistant, distinct, each
   * existing else 404; null is the working copy), weights 0-100 totalling 100. Each caller number
   * (the room when there is none) always lands on the same variant while the weights stay; a weight
   * change moves only the callers whose bucket crossed. Not with `assistant_version`; on an update
   * a split replaces a pin and `null` removes the split (the working copy answers).
   */
  @ValidateAssistantVariants()
  assistant_variants?: AssistantVariantDto[] | null;

  /**
   * `production` takes only versions whose newest check passed (`POST /assistant/check`), and never
   * the working copy (409 naming the field and the version); `staging` takes any; null: none.
   */
  @ValidateEnum(ENVIRONMENTS, { optional: true, nullable: true })
  environment?: MappingEnvironment | null;

  /**
   * Only with `assistant_variants`: a variant other than the first (the control) whose calls in
   * the window failed above `max_error_rate`, over at least `min_lookups` calls, ends the split on
   * the control's version (`guardrail_state` says so). `null` removes it.
   */
  @ValidateNestedObject(() => GuardrailDto, { optional: true, nullable: true })
  guardrail?: GuardrailDto | null;

  /** Strategy run before the call starts to fetch caller context; must be yours. `null` detaches it. */
  @ValidateUuid({ optional: true, nullable: true })
  inbound_context_strategy_id?: string | null;

  /** The inbound telephony provider; currently `exotel`. */
  @ValidateEnum(INBOUND_SERVICES)
  service: InboundService;

  @ValidateNestedObject(() => InboundConfigDto)
  inbound_config: InboundConfigDto;

  /**
   * Opening hours, closing days, caller rules and a cap on concurrent calls, enforced by the
   * lookup; `null` removes it. An update replaces the whole policy.
   */
  @ValidateNestedObject(() => InboundPolicyDto, { optional: true, nullable: true })
  policy?: InboundPolicyDto | null;

  /** Only an active mapping routes calls; one active mapping per number. Default true. */
  @Optional({ nullable: true })
  @IsBoolean()
  is_active?: boolean;
}

/** Every field optional; `null` detaches the assistant or the strategy. */
export class UpdateInboundDto extends PartialType(AssignInboundDto) {
  /** The assistant that answers calls to this number (must be yours); `null` detaches it. */
  @ValidateUuid({ optional: true, nullable: true })
  override assistant_id?: string;
}
