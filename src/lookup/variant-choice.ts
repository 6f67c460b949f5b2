import type { AssistantEntity } from '../assistant/assistant.entity';
import type { InboundContextLookupJobData } from '../contracts/inbound-context-lookup.contract';
import type { ResolvedMapping } from '../inbound-context/lookup.repository';
import { callerKey, pickVariant, variantBucket } from '../inbound-context/variant-pick';

/** What a lookup renders: the assistant, the version it comes from, and the split's arm if any. */
export interface ChosenAssistant {
  assistant: AssistantEntity | null;
  /** Null for the working copy. */
  version: number | null;
  /** Index into the mapping's `assistant_variants`; null without a split. */
  variant: number | null;
}

/**
 * The mapping's pin, or with a split the arm this caller's bucket falls in. An arm whose version
 * no longer exists renders the working copy (and says so: version null).
 */
export function chooseAssistant(
  found: ResolvedMapping,
  data: Pick<InboundContextLookupJobData, 'caller_number' | 'room_name'>,
): ChosenAssistant {
  const arms = found.variants;
  if (!arms?.length) return { assistant: found.assistant, version: found.version, variant: null };
  const bucket = variantBucket(
    found.mapping.inbound_id,
    callerKey(data.caller_number, data.room_name),
  );
  const variant = pickVariant(arms, bucket);
  const arm = arms[variant];
  if (!arm.assistant) return { assistant: found.assistant, version: null, variant };
  return { assistant: arm.assistant, version: arm.assistant_version, variant };
}
