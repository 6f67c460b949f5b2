import type { LoggerService } from '@nestjs/common';
import { MetricsService } from '../metrics/metrics.service';
import { countUnhandledRejections } from './unhandled-rejections';

describe(countUnhandledRejections.name, () => {
  it('logs an unhandled rejection as one line without its message and counts it', async () => {
    const metrics = new MetricsService();
    const logger = { error: jest.fn() };
    const stop = countUnhandledRejections(logger as unknown as LoggerService, metrics);
    try {
      const reason = Object.assign(new Error('GET https://hooks.example/x?key=sk-secret failed'), {
        code: 'ECONNRESET',
      });
      process.emit('unhandledRejection', reason, Promise.resolve());
    } finally {
      stop();
    }
    expect(logger.error).toHaveBeenCalledTimes(1);
    const [fields, message] = logger.error.mock.calls[0] as [object, string];
    expect(message).toBe('unhandled promise rejection');
    expect(fields).toMatchObject({ err: { type: 'Error', code: 'ECONNRESET' } });
    expect(JSON.stringify(fields)).not.toContain('sk-secret');
    expect(await metrics.metrics()).toMatch(/^process_unhandled_rejections_total 1$/m);
  });
});
