import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  defaultTextMapGetter,
  trace,
  type Attributes,
  type Span,
} from '@opentelemetry/api';
import { tracingEnabled } from './telemetry';
import {
  contextOf,
  formatTraceparent,
  nonZeroHex,
  parseTraceparent,
  w3cPropagator,
} from './trace-context';

/**
 * The spans the service makes itself: one per HTTP request it serves, one per job it runs, one
 * per request it sends to a customer. Attributes follow the OpenTelemetry semantic conventions and
 * never carry a header value, a job's data or a URL's secrets.
 */
const tracer = () => trace.getTracer('voice-assistant-config');

export interface ClientSpan {
  span: Span;
  /** The `traceparent` the request carries: it names this span. */
  traceparent: string;
}

/**
 * A client span for one outbound request, child of the work `parentTraceparent` names. With
 * tracing off it is a span context only (a new span id in the same trace), so the request still
 * carries a `traceparent` of its own.
 */
export function startClientSpan(parentTraceparent: string, attributes: Attributes): ClientSpan {
  const parent = parseTraceparent(parentTraceparent);
  const parentContext = parent ? contextOf(parent) : ROOT_CONTEXT;
  let span = tracer().startSpan(
    String(attributes['http.request.method'] ?? 'POST'),
    { kind: SpanKind.CLIENT, attributes },
    parentContext,
  );
  const own = span.spanContext();
  if (!span.isRecording() && (!parent || own.spanId === parent.spanId))
    span = trace.wrapSpanContext({
      traceId: parent?.traceId ?? nonZeroHex(16),
      spanId: nonZeroHex(8),
      traceFlags: parent?.traceFlags ?? 1,
    });
  return { span, traceparent: formatTraceparent(span.spanContext()) };
}

/**
 * Ends a client span with what came back: the status answered, and the entry's error class
 * (`errorTypeOf`, asked only when the span is recorded). Any error class is an ERROR status.
 */
export function endClientSpan(
  span: Span,
  status: number | null,
  errorTypeOf: () => string | null,
): void {
  if (!span.isRecording()) return;
  if (status !== null) span.setAttribute('http.response.status_code', status);
  const errorType = errorTypeOf();
  if (errorType !== null) {
    span.setAttribute('error.type', errorType);
    span.setStatus({ code: SpanStatusCode.ERROR });
  }
  span.end();
}

/** What a job span needs of a job: its id and the `traceparent` of its data, if any. */
export interface TracedJob {
  id?: string | number;
  data?: unknown;
}

/**
 * Runs a job inside a consumer span of its queue, continuing the trace its data's `traceparent`
 * names (a new trace without one). With tracing off the job runs as it is.
 */
export async function inJobSpan<R>(
  queue: string,
  job: TracedJob,
  run: () => Promise<R>,
): Promise<R> {
  if (!tracingEnabled()) return run();
  const data = job.data as { traceparent?: unknown } | null | undefined;
  const parent = parseTraceparent(data?.traceparent);
  const parentContext = parent ? trace.setSpanContext(ROOT_CONTEXT, parent) : ROOT_CONTEXT;
  const span = tracer().startSpan(
    `process ${queue}`,
    {
      kind: SpanKind.CONSUMER,
      attributes: {
        'messaging.system': 'bull',
        'messaging.destination.name': queue,
        'messaging.operation.type': 'process',
        ...(job.id === undefined ? {} : { 'messaging.message.id': String(job.id) }),
      },
    },
    parentContext,
  );
  try {
    return await context.with(trace.setSpan(parentContext, span), run);
  } catch (error) {
    span.setAttribute('error.type', error instanceof Error ? error.name : 'Error');
    span.setStatus({ code: SpanStatusCode.ERROR });
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Express middleware: a server span per request, continuing the caller's `traceparent`; named by
 * the route template (`routeOf`) once the router has matched it. Passes through when tracing is off.
 */
export function httpServerSpans(routeOf: (req: IncomingMessage) => string) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    if (!tracingEnabled()) return next();
    const method = req.method ?? 'GET';
    const parentContext = w3cPropagator.extract(ROOT_CONTEXT, req.headers, defaultTextMapGetter);
    const span = tracer().startSpan(
      method,
      { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } },
      parentContext,
    );
    res.once('close', () => {
      const route = routeOf(req);
      span.updateName(`${method} ${route}`);
      span.setAttribute('http.route', route);
      span.setAttribute('http.response.status_code', res.statusCode);
      if (res.statusCode >= 500) {
        span.setAttribute('error.type', String(res.statusCode));
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
      span.end();
    });
    context.with(trace.setSpan(parentContext, span), next);
  };
}
