import { validateEnv } from '../config/env.validation';
import { DatabaseSetupError } from './prepare-database';

/** Fails fast, before Nest starts, with the message that names the bad variable. */
export function validateEnvOrExit(): void {
  try {
    validateEnv(process.env);
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
