import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { MAX_ASSISTANT_VERSION } from '../../assistant/dto/assistant-version.dto';
import {
  Optional,
  ValidateEnum,
  ValidateNestedObject,
  ValidateText,
  ValidateUuid,
} from '../../common/validation/validation';
import {
  POLICY_ACTIONS,
  POLICY_LIMITS,
  type PolicyActionKind,
} from '../../inbound-policy/policy.types';

/*
 * The shape of a mapping's `policy`: types, list sizes and bounds. The values' own rules (time
 * ranges, zones, dates, countries, caller patterns) are `policyProblems`, which names the element
 * at fault (`policy.hours.mon[1]`); the assistant an action names must be the caller's.
 */

const RANGES_DOC: ListDoc = {
  example: ['09:00-14:00', '16:00-20:00'],
  description:
    'Up to 4 local ranges "HH:MM-HH:MM", not overlapping; "00:00-24:00" is the whole day.',
};

/** An optional list of at most `max` strings (`null` as absent), documented by `doc`. */
type ListDoc = { example: string[]; description?: string };

const StringList = (max: number, doc: ListDoc): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ type: [String], maxItems: max, required: false, nullable: true, ...doc }),
    Optional({ nullable: true }),
    IsArray(),
    ArrayMaxSize(max),
    IsString({ each: true }),
  );

const Ranges = (): PropertyDecorator => StringList(POLICY_LIMITS.rangesPerDay, RANGES_DOC);

/** Opening hours per weekday, local to the policy's `timezone`; a day left out is closed. */
export class PolicyHoursDto {
  @Ranges() mon?: string[] | null;
  @Ranges() tue?: string[] | null;
  @Ranges() wed?: string[] | null;
  @Ranges() thu?: string[] | null;
  @Ranges() fri?: string[] | null;
  @Ranges() sat?: string[] | null;
  @Ranges() sun?: string[] | null;
}

const CallerList = (): PropertyDecorator =>
  StringList(POLICY_LIMITS.callers, { example: ['+4930*'] });

/** Caller rules: E.164 numbers or prefixes ending in `*`; `deny` wins; with `allow`, only those. */
export class PolicyCallersDto {
  @CallerList() allow?: string[] | null;
  @CallerList() deny?: string[] | null;
}

/** What an overflowing number does: another assistant answers, or a message is played and the call ends. */
export class PolicyOverflowActionDto {
  @ValidateEnum(POLICY_ACTIONS)
  action: PolicyActionKind;

  /** With `assistant`: the assistant that answers (one of yours). */
  @ValidateUuid({ optional: true, nullable: true })
  assistant_id?: string | null;

  /** What the call stack plays before it hangs up (`reject`); with `assistant`, also in the result. */
  @ValidateText(1, POLICY_LIMITS.messageLength, { optional: true, nullable: true })
  message?: string | null;
}

/** What a closed number does; with `assistant`, optionally one of its published versions. */
export class PolicyClosedActionDto extends PolicyOverflowActionDto {
  @ApiProperty({
    type: 'integer',
    minimum: 1,
    maximum: MAX_ASSISTANT_VERSION,
    required: false,
    nullable: true,
  })
  @Optional({ nullable: true })
  @IsInt()
  @Min(1)
  @Max(MAX_ASSISTANT_VERSION)
  assistant_version?: number | null;
}

export class InboundPolicyDto {
  /** IANA time zone the hours and dates are local to (`Europe/Berlin`); required with hours or holidays. */
  @ValidateText(1, 64, { optional: true, nullable: true })
  timezone?: string | null;

  @ValidateNestedObject(() => PolicyHoursDto, { optional: true, nullable: true })
  hours?: PolicyHoursDto | null;

  /** Closing days, `YYYY-MM-DD` (local), at most 366. */
  @StringList(POLICY_LIMITS.holidays, { example: ['2026-12-24'] })
  holidays?: string[] | null;

  /** ISO 3166-1 alpha-2 code: that country's public holidays are closing days too. */
  @ApiProperty({ type: String, required: false, nullable: true, example: 'DE' })
  @Optional({ nullable: true })
  @IsString()
  @Matches(/^[A-Z]{2}$/, {
    message: '$property must be an ISO 3166-1 alpha-2 country code, e.g. "DE"',
  })
  holiday_country?: string | null;

  /** Outside the hours and on closing days. Default: `reject` without a message. */
  @ValidateNestedObject(() => PolicyClosedActionDto, { optional: true, nullable: true })
  closed?: PolicyClosedActionDto | null;

  @ValidateNestedObject(() => PolicyCallersDto, { optional: true, nullable: true })
  callers?: PolicyCallersDto | null;

  /** Calls of this number at once (one per room); a further call overflows. */
  @ApiProperty({
    type: 'integer',
    minimum: POLICY_LIMITS.minConcurrent,
    maximum: POLICY_LIMITS.maxConcurrent,
    required: false,
    nullable: true,
  })
  @Optional({ nullable: true })
  @IsInt()
  @Min(POLICY_LIMITS.minConcurrent)
  @Max(POLICY_LIMITS.maxConcurrent)
  max_concurrent_calls?: number | null;

  /** At the cap. Default: `reject` without a message. */
  @ValidateNestedObject(() => PolicyOverflowActionDto, { optional: true, nullable: true })
  overflow?: PolicyOverflowActionDto | null;

  /** A call's slot ends after this long even when no end of the call is reported. Default 14400. */
  @ApiProperty({
    type: 'integer',
    minimum: POLICY_LIMITS.minSlotTtl,
    maximum: POLICY_LIMITS.maxSlotTtl,
    required: false,
    nullable: true,
    example: POLICY_LIMITS.defaultSlotTtl,
  })
  @Optional({ nullable: true })
  @IsInt()
  @Min(POLICY_LIMITS.minSlotTtl)
  @Max(POLICY_LIMITS.maxSlotTtl)
  slot_ttl_seconds?: number | null;
}
