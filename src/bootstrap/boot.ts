import { validateEnv } from '../config/env.validation';

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
  process.stderr.write(`Startup failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
}
