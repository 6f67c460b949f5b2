import { createHash } from 'node:crypto';

/** One arm of a traffic split: a published version (null: the working copy) and its share in percent. */
export interface AssistantVariant {
  assistant_version: number | null;
  weight: number;
}

/** Buckets a split's weights are laid over: a weight is a number of buckets. */
export const VARIANT_BUCKETS = 100;

/**
 * Who a call is, for the split: the caller's number by its digits (so `+91 80…` and `9180…` are
 * one caller), or the room name when the caller is unknown.
 */
export function callerKey(callerNumber: string | undefined, roomName: string): string {
  const digits = (callerNumber ?? '').replace(/\D+/g, '');
  return digits ? `caller:${digits}` : `room:${roomName}`;
}

/** 2^64 / φ: Fibonacci hashing's multiplier. */
const GOLDEN = 0x9e3779b97f4a7c15n;
const MASK_64 = (1n << 64n) - 1n;

const first64Bits = (text: string): bigint =>
  createHash('sha256').update(text).digest().readBigUInt64BE(0);

/** A caller's digits as a number (the last 18, enough for any phone number); anything else hashed. */
function keyNumber(key: string): bigint {
  const digits = key.startsWith('caller:') ? key.slice('caller:'.length) : '';
  return /^\d+$/.test(digits) ? BigInt(digits.slice(-18)) : first64Bits(key);
}

/**
 * The caller's bucket, 0-99: Fibonacci hashing of the caller's number offset by a hash of the
 * mapping, `((number + offset(mapping)) × 2^64/φ) mod 2^64` scaled to 100. Stable: it depends on
 * nothing a weight change touches, so a caller keeps their bucket while a split is edited. Random
 * numbers spread like any good hash; neighbouring numbers land far apart and a run of them fills
 * the buckets evenly (a block of 200 consecutive numbers puts within a few callers of its share in
 * every range of buckets).
 */
export function variantBucket(inboundId: string, key: string): number {
  const mixed = ((keyNumber(key) + first64Bits(inboundId)) * GOLDEN) & MASK_64;
  return Number((mixed * BigInt(VARIANT_BUCKETS)) >> 64n);
}

/**
 * The variant whose cumulative weight range holds `bucket` (variant i owns buckets
 * [w0+…+w(i-1), w0+…+wi)). A weight change moves only the buckets whose range changed owner;
 * a zero weight owns none. Weights are validated to total 100; were they not, the last variant
 * with a weight takes the rest.
 */
export function pickVariant(variants: readonly AssistantVariant[], bucket: number): number {
  let upTo = 0;
  let last = -1;
  for (let i = 0; i < variants.length; i += 1) {
    if (variants[i].weight <= 0) continue;
    upTo += variants[i].weight;
    last = i;
    if (bucket < upTo) return i;
  }
  return Math.max(last, 0);
}

/** The split as stored: the arms' two fields only, in the order sent; null without one. */
export function variantsOf(
  sent: Array<{ assistant_version: number | null; weight: number }> | null | undefined,
): AssistantVariant[] | null {
  if (!sent) return null;
  return sent.map((arm) => ({ assistant_version: arm.assistant_version, weight: arm.weight }));
}
