import type { INestApplicationContext, LoggerService } from '@nestjs/common';

const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

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

  constructor(private readonly waitsFor: string) {
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
      // Registered before Nest's own listener, so this line comes first.
      process.once(signal, () => {
        this.signal = signal;
        this.startedAt = Date.now();
        logger.log(`Shutting down on ${signal}: waiting for ${this.waitsFor}`);
      });
    }
    app.enableShutdownHooks([...STOP_SIGNALS], { useProcessExit: true });
  }
}
