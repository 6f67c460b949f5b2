import {
  histogramQuantile,
  hourOf,
  LATENCY_BOUNDS_MS,
  latencyBucket,
  originOf,
} from './log-targets';

const histogram = (latencies: number[]): number[] => {
  const counts = new Array<number>(LATENCY_BOUNDS_MS.length + 1).fill(0);
  for (const ms of latencies) counts[latencyBucket(ms)] += 1;
  return counts;
};

describe('endpoint counters', () => {
  it('keys entries by URL origin, never by path, query or credentials', () => {
    expect(originOf('https://user:****@crm.example.com:8443/hook/{{secret.X}}?k=v')).toBe(
      'https://crm.example.com:8443',
    );
    expect(originOf('http://127.0.0.1:4010/a')).toBe('http://127.0.0.1:4010');
    expect(originOf(null)).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });

  it('buckets by UTC hour', () => {
    expect(hourOf(new Date('2025-01-31T09:59:59.999Z'))).toBe('2025-01-31T09');
  });

  it('puts a latency in the first bucket whose bound holds it, past the last in the overflow', () => {
    expect(latencyBucket(0)).toBe(0);
    expect(latencyBucket(25)).toBe(0);
    expect(latencyBucket(26)).toBe(1);
    expect(latencyBucket(10_001)).toBe(LATENCY_BOUNDS_MS.length);
  });

  it('reads p50 and p95 from the histogram within one bucket of the true value', () => {
    const latencies = Array.from({ length: 100 }, (_, i) => (i < 90 ? 40 : 2400));
    const h = histogram(latencies);
    const p50 = histogramQuantile(h, 0.5, 2400)!;
    const p95 = histogramQuantile(h, 0.95, 2400)!;
    expect(p50).toBeGreaterThan(25);
    expect(p50).toBeLessThanOrEqual(50);
    expect(p95).toBeGreaterThan(2000);
    expect(p95).toBeLessThanOrEqual(2400);
  });

  it('ends the overflow bucket at the largest latency seen, and has no quantile without data', () => {
    expect(histogramQuantile(histogram([20_000]), 0.95, 20_000)).toBeGreaterThan(10_000);
    expect(histogramQuantile(histogram([20_000]), 0.95, 20_000)).toBeLessThanOrEqual(20_000);
    expect(histogramQuantile(histogram([]), 0.5, 0)).toBeNull();
  });
});
