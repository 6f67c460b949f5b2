import { loadAppConfig, type AppConfig } from '../config/app-config';
import { DatabaseSetupError } from './prepare-database';

/** The process's configuration; a bad variable exits before Nest starts, with the message naming it. */
export function loadAppConfigOrExit(): AppConfig {
  try {
    return loadAppConfig();
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}

export function exitOnBootFailure(error: unknown): never {
  // A setup problem the user can fix is one line; anything else keeps its stack.
  const text =
    error instanceof DatabaseSetupError
      ? error.message
      : error instanceof Error
        ? (error.stack ?? error.message)
        : String(error);
  process.stderr.write(`Startup failed: ${text}\n`);
  process.exit(1);
}
