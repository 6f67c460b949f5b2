import { Registry } from 'prom-client';
import { ReadinessGauges, type ReadinessReport } from './readiness-gauges';

const UP: ReadinessReport = { ready: true, dependencies: { database: true, redis: true } };

function gauges(timeoutMs = 50): { readiness: ReadinessGauges; scrape: () => Promise<string> } {
  const registry = new Registry();
  const readiness = new ReadinessGauges(registry, timeoutMs);
  return { readiness, scrape: () => registry.metrics() };
}

describe(ReadinessGauges.name, () => {
  afterEach(() => jest.useRealTimers());

  it('checks readiness at scrape time when nobody asked /health/ready', async () => {
    const { readiness, scrape } = gauges();
    const source = jest.fn().mockResolvedValue({
      ready: false,
      dependencies: { database: true, redis: false, database_replica_1: true },
    });
    readiness.setSource(source);
    const text = await scrape();
    expect(text).toMatch(/^health_ready 0$/m);
    expect(text).toMatch(/^health_dependency_up\{dependency="database"\} 1$/m);
    expect(text).toMatch(/^health_dependency_up\{dependency="redis"\} 0$/m);
    expect(text).toMatch(/^health_dependency_up\{dependency="database_replica_1"\} 1$/m);
    // One check serves both gauges.
    expect(source).toHaveBeenCalledTimes(1);
  });

  it('reuses a report the health routes just made, and checks again once it is a second old', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout'] });
    const { readiness, scrape } = gauges();
    const source = jest.fn().mockResolvedValue({ ready: false, dependencies: { database: false } });
    readiness.setSource(source);
    readiness.report(UP);
    expect(await scrape()).toMatch(/^health_ready 1$/m);
    expect(source).not.toHaveBeenCalled();
    jest.setSystemTime(Date.now() + 1500);
    const text = await scrape();
    expect(text).toMatch(/^health_ready 0$/m);
    expect(text).toMatch(/^health_dependency_up\{dependency="database"\} 0$/m);
    // A dependency no longer reported is no longer exported.
    expect(text).not.toContain('dependency="redis"');
  });

  it('reports not ready when the check fails or outlasts its timeout, keeping the last dependencies', async () => {
    jest.useFakeTimers({ doNotFake: ['setTimeout', 'clearTimeout'] });
    const { readiness, scrape } = gauges(20);
    readiness.report(UP);
    jest.setSystemTime(Date.now() + 1500);
    readiness.setSource(() => new Promise<ReadinessReport>(() => undefined));
    const text = await scrape();
    expect(text).toMatch(/^health_ready 0$/m);
    expect(text).toMatch(/^health_dependency_up\{dependency="redis"\} 1$/m);

    jest.setSystemTime(Date.now() + 1500);
    readiness.setSource(() => Promise.reject(new Error('boom')));
    expect(await scrape()).toMatch(/^health_ready 0$/m);
  });

  it('exports nothing where no health module runs (the worker), rather than a 0', async () => {
    const { readiness, scrape } = gauges();
    readiness.report(UP);
    expect(await scrape()).not.toContain('health_');
    readiness.setSource(() => Promise.resolve(UP));
    expect(await scrape()).toContain('# TYPE health_ready gauge');
  });
});
