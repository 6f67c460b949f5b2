import type { INestApplicationContext, LoggerService } from '@nestjs/common';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;
/** A stop signal repeated within this long is the same stop; later, it ends the process at once. */
export const REPEAT_WINDOW_MS = 2000;

/**
 * Makes a stop visible: on Ctrl-C or SIGTERM one line says what the process waits for, and one
 * line says when it is done. Nest runs the shutdown (hooks, HTTP server, queues, database) and
 * then calls `process.exit`, so buffered log transports (pino-pretty) flush their last lines.
 *
 * Create it before the logger exists: its 'exit' listener must run before the log transport's own,
 * which flushes and closes the transport.
 */
export class ShutdownLog {
  private logger?: LoggerService;
  private signal?: string;
  private startedAt = 0;

  /**
   * `graceMs` (`SHUTDOWN_GRACE_MS`): how long the stop may wait for in-flight requests and jobs;
   * past it the process exits anyway (code 1), naming what it still waited for.
   */
  constructor(
    private readonly waitsFor: string,
    private readonly graceMs: number,
  ) {
    process.once('exit', (code) => {
      if (this.signal)
        this.logger?.log(
          `Stopped ${Date.now() - this.startedAt} ms after ${this.signal} (exit code ${code})`,
        );
    });
  }

  /** Logs through `logger` from now on and lets Nest handle the stop signals. */
  attach(app: INestApplicationContext, logger: LoggerService): void {
    this.logger = logger;
    for (const signal of STOP_SIGNALS) {
      // Registered before Nest's own listener, so this line comes first. It stays registered:
      // Nest removes its own listeners when the stop begins, and a repeated signal must not then
      // take the default action (killing the process before its shutdown and its last log line).
      process.on(signal, () => this.onSignal(signal));
    }
    app.enableShutdownHooks([...STOP_SIGNALS], { useProcessExit: true });
  }

  private onSignal(signal: string): void {
    if (!this.signal) {
      this.signal = signal;
      this.startedAt = Date.now();
      this.logger?.log(
        `Shutting down on ${signal}: waiting for ${this.waitsFor} (at most ${this.graceMs} ms, SHUTDOWN_GRACE_MS)`,
      );
      // Stuck requests or jobs (a hung database, a pool that never frees) must not keep a
      // stopped process alive: past the grace period it exits without them.
      setTimeout(() => {
        this.logger?.warn(
          `Still stopping ${this.graceMs} ms after ${signal} (SHUTDOWN_GRACE_MS): exiting without waiting for ${this.waitsFor}`,
        );
        process.exit(1);
      }, this.graceMs).unref();
      return;
    }
    // Ctrl-C on `npm start` reaches this process twice at once: from the terminal (the whole
    // process group) and forwarded by npm. That is one stop, already under way.
    if (Date.now() - this.startedAt < REPEAT_WINDOW_MS) return;
    this.logger?.warn(`${signal} again while stopping: exiting now`);
    process.exit(1);
  }
}
