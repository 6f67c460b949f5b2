import { Injectable } from '@nestjs/common';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import { AssistantService } from '../assistant/assistant.service';
import { AppErrorCode, AppException, type FieldError } from '../common/errors/app.exception';
import { policyProblems } from '../inbound-policy/policy-rules';
import {
  POLICY_LIMITS,
  WEEKDAYS,
  type InboundPolicy,
  type PolicyAction,
} from '../inbound-policy/policy.types';
import type { InboundPolicyDto } from './dto/inbound-policy.dto';

/**
 * A mapping's `policy` as it is stored: its values checked (400 naming the field at fault), the
 * assistant each action names one of the caller's (and its version published), defaults filled in.
 */
@Injectable()
export class InboundPolicyChecks {
  constructor(
    private readonly assistants: AssistantService,
    private readonly versions: AssistantVersionService,
  ) {}

  async stored(userId: string, dto: InboundPolicyDto): Promise<InboundPolicy> {
    const policy = storedPolicy(dto);
    const problems = policyProblems(policy);
    if (problems.length) throw AppException.validation(problems);
    for (const name of ['closed', 'overflow'] as const) {
      const problem = await this.actionProblem(userId, policy[name], `policy.${name}`);
      if (problem) throw AppException.validation([problem]);
    }
    return policy;
  }

  /** An update's change of the policy: none when `policy` is absent, removed when null. */
  async change(
    userId: string,
    policy: InboundPolicyDto | null | undefined,
  ): Promise<{ policy?: InboundPolicy | null }> {
    if (policy === undefined) return {};
    return { policy: policy && (await this.stored(userId, policy)) };
  }

  private async actionProblem(
    userId: string,
    action: PolicyAction | null | undefined,
    path: string,
  ): Promise<FieldError | null> {
    if (action?.action !== 'assistant' || !action.assistant_id) return null;
    const { assistant_id: assistantId, assistant_version: version } = action;
    if (await isNotFound(this.assistants.assertOwned(userId, assistantId)))
      return {
        field: `${path}.assistant_id`,
        message: `assistant ${assistantId} is not one of your assistants`,
      };
    if (version === null || version === undefined) return null;
    if (await isNotFound(this.versions.assertExists(userId, assistantId, version)))
      return {
        field: `${path}.assistant_version`,
        message: `assistant ${assistantId} has no published version ${version}`,
      };
    return null;
  }
}

/** The policy as kept: only what was sent (nulls dropped), in a fixed order, `slot_ttl_seconds` defaulted. */
export function storedPolicy(dto: InboundPolicyDto): InboundPolicy {
  const policy: InboundPolicy = {};
  if (dto.timezone) policy.timezone = dto.timezone;
  if (dto.hours) {
    const hours: NonNullable<InboundPolicy['hours']> = {};
    for (const day of WEEKDAYS) if (dto.hours[day]) hours[day] = [...dto.hours[day]];
    policy.hours = hours;
  }
  if (dto.holidays) policy.holidays = [...dto.holidays];
  if (dto.holiday_country) policy.holiday_country = dto.holiday_country;
  if (dto.closed) policy.closed = actionOf(dto.closed);
  if (dto.callers) {
    policy.callers = {};
    if (dto.callers.allow) policy.callers.allow = [...dto.callers.allow];
    if (dto.callers.deny) policy.callers.deny = [...dto.callers.deny];
  }
  if (dto.max_concurrent_calls) policy.max_concurrent_calls = dto.max_concurrent_calls;
  if (dto.overflow) policy.overflow = actionOf(dto.overflow);
  policy.slot_ttl_seconds = dto.slot_ttl_seconds ?? POLICY_LIMITS.defaultSlotTtl;
  return policy;
}

function actionOf(dto: PolicyAction): PolicyAction {
  const action: PolicyAction = { action: dto.action };
  if (dto.assistant_id) action.assistant_id = dto.assistant_id;
  if (dto.assistant_version !== null && dto.assistant_version !== undefined)
    action.assistant_version = dto.assistant_version;
  if (dto.message) action.message = dto.message;
  return action;
}

/** Whether `check` failed with a 404 (anything else is thrown on). */
async function isNotFound(check: Promise<void>): Promise<boolean> {
  try {
    await check;
    return false;
  } catch (error) {
    if (error instanceof AppException && error.code === AppErrorCode.NOT_FOUND) return true;
    throw error;
  }
}
