import { QueryFailedError } from 'typeorm';

/** True when a write failed on a unique index (MySQL ER_DUP_ENTRY, SQLite UNIQUE constraint). */
export function isUniqueViolation(error: unknown): boolean {
  if (!(error instanceof QueryFailedError)) return false;
  const driver = (error as QueryFailedError & { driverError?: { code?: unknown; errno?: unknown } })
    .driverError;
  const code = driver?.code;
  return (
    code === 'ER_DUP_ENTRY' ||
    driver?.errno === 1062 ||
    code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    /UNIQUE constraint failed/i.test(error.message)
  );
}
