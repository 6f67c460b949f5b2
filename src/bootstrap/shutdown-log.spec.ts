import type { INestApplicationContext, LoggerService } from '@nestjs/common';
import { REPEAT_WINDOW_MS, ShutdownLog } from './shutdown-log';

describe(ShutdownLog.name, () => {
  const signals = ['SIGINT', 'SIGTERM'] as const;
  let before: Record<string, NodeJS.SignalsListener[]>;
  let logger: { log: jest.Mock; warn: jest.Mock };
  let exit: jest.SpyInstance;

  beforeEach(() => {
    before = Object.fromEntries(signals.map((s) => [s, process.listeners(s)]));
    logger = { log: jest.fn(), warn: jest.fn() };
    exit = jest.spyOn(process, 'exit').mockImplementation((() => undefined) as never);
    const app = { enableShutdownHooks: jest.fn() } as unknown as INestApplicationContext;
    new ShutdownLog('in-flight requests', 5000).attach(app, logger as unknown as LoggerService);
  });

  afterEach(() => {
    for (const s of signals)
      for (const listener of process.listeners(s))
        if (!before[s].includes(listener)) process.removeListener(s, listener);
    process.removeAllListeners('exit');
    exit.mockRestore();
    jest.useRealTimers();
  });

  it('logs the stop once when the same Ctrl-C arrives twice (terminal and npm), and stays subscribed', () => {
    // Fake timers: the grace timer this stop starts must not exit the process in a later file.
    jest.useFakeTimers();
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    expect(logger.log).toHaveBeenCalledTimes(1);
    expect(logger.log).toHaveBeenCalledWith(
      'Shutting down on SIGINT: waiting for in-flight requests (at most 5000 ms, SHUTDOWN_GRACE_MS)',
    );
    expect(exit).not.toHaveBeenCalled();
    // Still listening, so a repeat never takes the default action (killing the process).
    expect(process.listenerCount('SIGINT')).toBeGreaterThan(before.SIGINT.length);
  });

  it('exits at once on a stop signal repeated after the stop has been under way a while', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    process.emit('SIGTERM', 'SIGTERM');
    jest.setSystemTime(1_000_000 + REPEAT_WINDOW_MS + 1);
    process.emit('SIGTERM', 'SIGTERM');
    expect(logger.warn).toHaveBeenCalledWith('SIGTERM again while stopping: exiting now');
    expect(exit).toHaveBeenCalledWith(1);
  });

  it('exits once the grace period has passed, whatever it still waits for', () => {
    jest.useFakeTimers();
    process.emit('SIGTERM', 'SIGTERM');
    jest.advanceTimersByTime(4999);
    expect(exit).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(logger.warn).toHaveBeenCalledWith(
      'Still stopping 5000 ms after SIGTERM (SHUTDOWN_GRACE_MS): exiting without waiting for in-flight requests',
    );
    expect(exit).toHaveBeenCalledWith(1);
  });
});
