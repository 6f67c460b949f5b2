import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { childTraceparent, parseTraceparent, traceOf } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const SPAN = '00f067aa0ba902b7';
const VALID = `00-${TRACE}-${SPAN}-01`;

describe(parseTraceparent.name, () => {
  it('reads a version 00 header', () => {
    expect(parseTraceparent(VALID)).toEqual(
      expect.objectContaining({ traceId: TRACE, spanId: SPAN, traceFlags: 1 }),
    );
  });

  it('reads the four known fields of a later version and ignores the rest', () => {
    expect(parseTraceparent(`cc-${TRACE}-${SPAN}-00-extra`)).toEqual(
      expect.objectContaining({ traceId: TRACE, traceFlags: 0 }),
    );
  });

  it.each([
    ['not a string', 42],
    ['empty', ''],
    ['upper case', VALID.toUpperCase()],
    ['all-zero trace id', `00-${'0'.repeat(32)}-${SPAN}-01`],
    ['all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-${SPAN}-01`],
    ['version 00 with more fields', `${VALID}-extra`],
    ['short trace id', `00-${TRACE.slice(1)}-${SPAN}-01`],
    ['garbage', 'hello'],
  ])('refuses %s', (_, value) => {
    expect(parseTraceparent(value)).toBeNull();
  });
});

describe(traceOf.name, () => {
  it("keeps the job's trace and its span", () => {
    expect(traceOf(VALID)).toEqual({ trace_id: TRACE, span_id: SPAN, flags: '01' });
  });

  it('starts a new sampled trace when none or an invalid one came', () => {
    const fresh = traceOf(undefined);
    expect(fresh.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.flags).toBe('01');
    expect(traceOf('nonsense').trace_id).not.toBe(fresh.trace_id);
  });

  describe('inside a running span', () => {
    const manager = new AsyncLocalStorageContextManager();
    beforeAll(() => context.setGlobalContextManager(manager.enable()));
    afterAll(() => context.disable());
    const running = { traceId: TRACE, spanId: 'bbbbbbbbbbbbbbbb', traceFlags: 1 };
    const inRunning = <T>(fn: () => T): T =>
      context.with(trace.setSpanContext(ROOT_CONTEXT, running), fn);

    it('is the running span when the traceparent names its trace, or none is given', () => {
      for (const given of [VALID, undefined])
        expect(inRunning(() => traceOf(given))).toEqual({
          trace_id: TRACE,
          span_id: 'bbbbbbbbbbbbbbbb',
          flags: '01',
        });
    });

    it('is the one the traceparent names when that is another trace', () => {
      const other = `00-${'c'.repeat(32)}-${SPAN}-00`;
      expect(inRunning(() => traceOf(other))).toEqual({
        trace_id: 'c'.repeat(32),
        span_id: SPAN,
        flags: '00',
      });
    });
  });
});

describe(childTraceparent.name, () => {
  it('names the known span of the trace', () => {
    expect(childTraceparent(traceOf(VALID))).toBe(VALID);
  });

  it('names a new span of the trace when none is known, across refills of the random pool', () => {
    // 8 bytes each: 2,000 ids draw the 4 KB pool several times over.
    const spans = Array.from(
      { length: 2000 },
      () => childTraceparent({ trace_id: TRACE, flags: '01' }).split('-')[2],
    );
    expect(spans.every((span) => /^[0-9a-f]{16}$/.test(span) && !/^0+$/.test(span))).toBe(true);
    expect(new Set(spans).size).toBe(spans.length);
  });
});
