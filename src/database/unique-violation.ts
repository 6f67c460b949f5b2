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

/** True when a write failed on a table's primary key (MySQL names it `PRIMARY`). */
export function isPrimaryKeyViolation(error: unknown): boolean {
  if (!isUniqueViolation(error)) return false;
  const driver = (error as QueryFailedError & { driverError?: { sqlMessage?: unknown } })
    .driverError;
  const message =
    typeof driver?.sqlMessage === 'string' ? driver.sqlMessage : (error as Error).message;
  return /for key '(?:[\w$]+\.)?PRIMARY'/i.test(message);
}
