import { ApiProperty } from '@nestjs/swagger';
import { CALLER_NUMBER_MAX_LENGTH } from '../../contracts/limits';
import { ValidateIso8601, ValidateText } from '../../common/validation/validation';
import {
  POLICY_OUTCOMES,
  POLICY_RESULT_ACTIONS,
  type PolicyOutcome,
  type PolicyResultAction,
} from '../../inbound-policy/policy.types';

/** Body of `POST /inbound/policy-check/:inbound_id`: a call to judge, both fields optional. */
export class PolicyCheckDto {
  /** The caller, as the call stack would send it; left out, a caller no rule names. @example "+4930123456" */
  @ValidateText(0, CALLER_NUMBER_MAX_LENGTH, { optional: true, nullable: true })
  caller_number?: string | null;

  /** The moment to judge (ISO 8601); left out, now. */
  @ValidateIso8601({ optional: true })
  at?: string;
}

/**
 * What the number's policy decides for that call, as a lookup would (its caller rules, hours and
 * closing days). No slot is taken and none is counted: the cap depends on the calls live at the
 * moment of a real lookup. A number without a policy is open.
 */
export class PolicyCheckResultDto {
  @ApiProperty({ enum: POLICY_OUTCOMES })
  outcome: PolicyOutcome;

  @ApiProperty({ enum: POLICY_RESULT_ACTIONS })
  action: PolicyResultAction;

  /** The message a `reject` plays; null when the call goes on to an assistant. */
  message: string | null;

  /** The next opening (ISO 8601 with the zone's offset) when closed; else null. */
  next_open_at: string | null;

  /** The moment on the number's wall clock, `HH:MM` in its `timezone` (UTC without one). */
  local_time: string;
}
