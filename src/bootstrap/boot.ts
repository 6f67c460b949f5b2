import { loadAppConfig, type AppConfig } from '../config/app-config';
import { DatabaseSetupError } from './prepare-database';

/** Log levels at which a boot failure also prints its stack (below its one line). */
const STACK_LEVELS = new Set(['debug', 'trace']);

let printStacks = false;

/** The process's configuration; a bad variable exits before Nest starts, with the message naming it. */
export function loadAppConfigOrExit(): AppConfig {
  try {
    const config = loadAppConfig();
    printStacks = STACK_LEVELS.has(config.app.logLevel);
    return config;
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

/** `listen` on a port another process holds: Node's error carries the port and this code. */
interface ListenError {
  code?: unknown;
  port?: unknown;
}

/**
 * Why the start failed, in one line that says what to do when the cause is known (a used port, a
 * database that cannot be set up), else the error's class and the first line of its message.
 */
export function bootFailureLine(error: unknown): string {
  const listen = (error ?? {}) as ListenError;
  if (listen.code === 'EADDRINUSE') {
    const port =
      typeof listen.port === 'number' || typeof listen.port === 'string'
        ? `port ${listen.port}`
        : 'the port';
    return `${port} is already in use by another process: stop it, or set PORT to a free port`;
  }
  if (error instanceof DatabaseSetupError) return error.message;
  if (!(error instanceof Error)) return String(error).split('\n')[0];
  const message = error.message.split('\n')[0];
  return error.name && error.name !== 'Error' && !message.startsWith(error.name)
    ? `${error.name}: ${message}`
    : message;
}

export function exitOnBootFailure(error: unknown): never {
  process.stderr.write(`Startup failed: ${bootFailureLine(error)}\n`);
  // The stack helps only whoever debugs the service itself: at LOG_LEVEL=debug or trace.
  if (printStacks && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  process.exit(1);
}
