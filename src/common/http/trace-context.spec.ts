import { childTraceparent, parseTraceparent, traceOf } from './trace-context';

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736';
const VALID = `00-${TRACE}-00f067aa0ba902b7-01`;

describe(parseTraceparent.name, () => {
  it('reads a version 00 header', () => {
    expect(parseTraceparent(VALID)).toEqual({ trace_id: TRACE, flags: '01' });
  });

  it('reads the four known fields of a later version and ignores the rest', () => {
    expect(parseTraceparent(`cc-${TRACE}-00f067aa0ba902b7-00-extra`)).toEqual({
      trace_id: TRACE,
      flags: '00',
    });
  });

  it.each([
    ['not a string', 42],
    ['empty', ''],
    ['upper case', VALID.toUpperCase()],
    ['all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['all-zero parent id', `00-${TRACE}-${'0'.repeat(16)}-01`],
    ['version ff', `ff-${TRACE}-00f067aa0ba902b7-01`],
    ['version 00 with more fields', `${VALID}-extra`],
    ['short trace id', `00-${TRACE.slice(1)}-00f067aa0ba902b7-01`],
    ['garbage', 'hello'],
  ])('refuses %s', (_, value) => {
    expect(parseTraceparent(value)).toBeNull();
  });
});

describe(traceOf.name, () => {
  it("keeps the job's trace", () => {
    expect(traceOf(VALID).trace_id).toBe(TRACE);
  });

  it('starts a new sampled trace when none or an invalid one came', () => {
    const fresh = traceOf(undefined);
    expect(fresh.trace_id).toMatch(/^[0-9a-f]{32}$/);
    expect(fresh.flags).toBe('01');
    expect(traceOf('nonsense').trace_id).not.toBe(fresh.trace_id);
  });
});

describe(childTraceparent.name, () => {
  it('carries the trace id and a new span id on every request', () => {
    const trace = traceOf(VALID);
    const [a, b] = [childTraceparent(trace), childTraceparent(trace)];
    expect(a).toMatch(new RegExp(`^00-${TRACE}-[0-9a-f]{16}-01$`));
    expect(a.split('-')[2]).not.toBe('00f067aa0ba902b7');
    expect(a).not.toBe(b);
    expect(parseTraceparent(a)).toEqual({ trace_id: TRACE, flags: '01' });
  });

  it('gives every request its own span id, across refills of the random pool', () => {
    const trace = traceOf(VALID);
    // 8 bytes each: 2,000 ids draw the 4 KB pool several times over.
    const spans = Array.from({ length: 2000 }, () => childTraceparent(trace).split('-')[2]);
    expect(spans.every((span) => /^[0-9a-f]{16}$/.test(span) && !/^0+$/.test(span))).toBe(true);
    expect(new Set(spans).size).toBe(spans.length);
  });
});
