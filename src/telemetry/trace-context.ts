import { randomBytes } from 'node:crypto';
import {
  ROOT_CONTEXT,
  context,
  defaultTextMapGetter,
  defaultTextMapSetter,
  isSpanContextValid,
  trace,
  type Context,
  type SpanContext,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';

/**
 * W3C Trace Context (https://www.w3.org/TR/trace-context/) for the requests the service makes:
 * a job's `traceparent` names the caller's trace; every outbound request carries a `traceparent`
 * naming its own span in that trace, so a customer's tracing shows each request as a child of the
 * call. Parsing and writing the header is the OpenTelemetry W3C propagator's; a job without a
 * valid one starts a new trace (never a failure). With tracing off (no exporter) the same ids are
 * made without a tracer: entries still carry the trace id a producer sent.
 */
export interface TraceContext {
  /** 32 lowercase hex digits, never all zeros. */
  trace_id: string;
  /** The trace flags to pass on (`01` sampled); a new trace is sampled. */
  flags: string;
  /** The span this work runs in (a job's span, or the producer's), when one is known. */
  span_id?: string;
}

export const TRACE_ID_PATTERN = /^[0-9a-f]{32}$/;

export const w3cPropagator = new W3CTraceContextPropagator();

/** The span context a `traceparent` header value names, or null when it is not a valid one. */
export function parseTraceparent(value: unknown): SpanContext | null {
  if (typeof value !== 'string') return null;
  const extracted = w3cPropagator.extract(
    ROOT_CONTEXT,
    { traceparent: value.trim() },
    defaultTextMapGetter,
  );
  const parent = trace.getSpanContext(extracted);
  return parent && isSpanContextValid(parent) ? parent : null;
}

/** The `traceparent` header value naming `spanContext`. */
export function formatTraceparent(spanContext: SpanContext): string {
  const carrier: Record<string, string> = {};
  w3cPropagator.inject(
    trace.setSpanContext(ROOT_CONTEXT, spanContext),
    carrier,
    defaultTextMapSetter,
  );
  return carrier.traceparent;
}

/**
 * The trace this work belongs to: the span running now (a job's or a request's span) when it is
 * in the trace `traceparent` names or none is given, else the one `traceparent` names, else a new
 * sampled trace.
 */
export function traceOf(traceparent?: unknown): TraceContext {
  const given = parseTraceparent(traceparent);
  const active = trace.getSpanContext(context.active());
  const running = active && isSpanContextValid(active) ? active : null;
  const span = running && (!given || given.traceId === running.traceId) ? running : given;
  if (!span) return { trace_id: nonZeroHex(16), flags: '01' };
  return { trace_id: span.traceId, span_id: span.spanId, flags: flagsHex(span.traceFlags) };
}

/** The trace's span context: its known span, else a new span id in it (a parent seen only by id). */
export function spanContextOf(trace: TraceContext): SpanContext {
  return {
    traceId: trace.trace_id,
    spanId: trace.span_id ?? nonZeroHex(8),
    traceFlags: parseInt(trace.flags, 16) || 0,
    isRemote: true,
  };
}

/**
 * A `traceparent` for work started from `trace` (an outbound request, the next job of a
 * delivery): it names the trace's running span when one is known, else a new span id. The
 * outbound client makes each request a span of its own under it.
 */
export function childTraceparent(trace: TraceContext): string {
  return formatTraceparent(spanContextOf(trace));
}

/** The context whose span is `parent`: the running one when it is that span, else a remote parent. */
export function contextOf(parent: SpanContext): Context {
  const active = context.active();
  const running = trace.getSpanContext(active);
  if (running && running.traceId === parent.traceId && running.spanId === parent.spanId)
    return active;
  return trace.setSpanContext(active, parent);
}

function flagsHex(flags: number): string {
  return (flags & 0xff).toString(16).padStart(2, '0');
}

/**
 * Random bytes for ids, drawn from the system in blocks: one `randomBytes` call per id made a
 * system call on every request a job sent.
 */
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let taken = POOL_BYTES;
const ALL_ZEROS = /^0+$/;

export function nonZeroHex(bytes: number): string {
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
