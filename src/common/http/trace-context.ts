import { randomBytes } from 'node:crypto';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) for the requests a job makes: the job's
 * `traceparent` names the caller's trace; every outbound request carries a `traceparent` with that
 * trace id and a span id of its own, so a customer's tracing shows each request as a child of the
 * call. A job without one, or with one that is not valid, starts a new trace (never a failure).
 */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zeros. */
  trace_id: string;
  /** The trace flags to pass on (`01` sampled); a new trace is sampled. */
  flags: string;
}

const TRACEPARENT_00 = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
// A later version may append fields after the four of version 00: read those, ignore the rest.
const TRACEPARENT_LATER = /^([0-9a-e][0-9a-f])-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-|$)/;
const ALL_ZEROS = /^0+$/;
export const TRACE_ID_PATTERN = /^[0-9a-f]{32}$/;

/** The trace a `traceparent` header value names, or null when it is not a valid one. */
export function parseTraceparent(value: unknown): TraceContext | null {
  if (typeof value !== 'string') return null;
  const text = value.trim();
  let traceId: string;
  let parentId: string;
  let flags: string;
  const v00 = TRACEPARENT_00.exec(text);
  if (v00) [, traceId, parentId, flags] = v00;
  else {
    const later = TRACEPARENT_LATER.exec(text);
    if (!later || later[1] === '00') return null;
    [, , traceId, parentId, flags] = later;
  }
  if (ALL_ZEROS.test(traceId) || ALL_ZEROS.test(parentId)) return null;
  return { trace_id: traceId, flags };
}

/** The job's trace: the one its `traceparent` names, else a new sampled trace. */
export function traceOf(traceparent: unknown): TraceContext {
  return parseTraceparent(traceparent) ?? { trace_id: nonZeroHex(16), flags: '01' };
}

/** A `traceparent` for one outbound request: the trace's id and a new span id. */
export function childTraceparent(trace: TraceContext): string {
  return `00-${trace.trace_id}-${nonZeroHex(8)}-${trace.flags}`;
}

/**
 * Random bytes for ids, drawn from the system in blocks: one `randomBytes` call per id made a
 * system call on every request a job sent.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = POOL_BYTES;

function nonZeroHex(bytes: number): string {
  for (;;) {
    if (taken + bytes > pool.length) {
      pool = randomBytes(POOL_BYTES);
      taken = 0;
    }
    const hex = pool.toString('hex', taken, taken + bytes);
    taken += bytes;
    if (!ALL_ZEROS.test(hex)) return hex;
  }
}
