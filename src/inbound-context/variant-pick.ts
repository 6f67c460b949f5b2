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

/**
 * The caller's bucket, 0-99: a stable hash of (mapping, caller). It depends on nothing that a
 * weight change touches, so the same caller keeps the same bucket while a split is edited.
 */
export function variantBucket(inboundId: string, key: string): number {
  const digest = createHash('sha256').update(`${inboundId}\n${key}`).digest();
  return digest.readUInt32BE(0) % VARIANT_BUCKETS;
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
