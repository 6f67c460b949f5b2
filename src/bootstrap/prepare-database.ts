import { createConnection, type Connection } from 'mysql2/promise';

/** How long a first run may take to tell the user what is wrong with DATABASE_URL. */
const CONNECT_TIMEOUT_MS = 5000;

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);

/** Why the service cannot start on this database: one line that says what to do. */
export class DatabaseSetupError extends Error {
  override name = 'DatabaseSetupError';

  /** True when nothing answered at DATABASE_URL (as opposed to a wrong user or database). */
  constructor(
    message: string,
    readonly unreachable = false,
  ) {
    super(message);
  }
}

function describeConnectFailure(error: unknown, url: URL): string {
  const code = (error as { code?: unknown }).code;
  const where = `${url.hostname}:${url.port || 3306}`;
  if (typeof code === 'string' && UNREACHABLE.has(code))
    return `MySQL at ${where} is not reachable (${code}): start it, or point DATABASE_URL at a running server`;
  if (code === 'ER_ACCESS_DENIED_ERROR')
    return `MySQL at ${where} refused user "${decodeURIComponent(url.username)}": check the user and password in DATABASE_URL`;
  return `cannot connect to MySQL at ${where} (${typeof code === 'string' ? code : 'unknown error'}): check DATABASE_URL`;
}

/**
 * Before the service connects for good: with a MySQL `databaseUrl` (`DATABASE_URL`), checks within 5 s that the server
 * answers and creates the database when it is missing and the user may (utf8mb4). Throws a
 * `DatabaseSetupError` holding one line that says what to do, never a stack trace. Returns what it
 * did, for the start-up log, or null.
 */
export async function prepareDatabase(databaseUrl: string | null): Promise<string | null> {
  if (!databaseUrl) return null;
  const url = new URL(databaseUrl);
  const database = decodeURIComponent(url.pathname.replace(/^\//, ''));
  if (!database)
    throw new DatabaseSetupError(
      'DATABASE_URL names no database: add one, e.g. mysql://user:pass@127.0.0.1:3306/voice_assistant',
    );
  let connection: Connection;
  try {
    connection = await createConnection({
      host: url.hostname,
      port: Number(url.port || 3306),
      user: decodeURIComponent(url.username),
      password: decodeURIComponent(url.password),
      connectTimeout: CONNECT_TIMEOUT_MS,
    });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new DatabaseSetupError(
      describeConnectFailure(error, url),
      typeof code === 'string' && UNREACHABLE.has(code),
    );
  }
  try {
    const [rows] = await connection.query(
      'SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = ?',
      [database],
    );
    if ((rows as unknown[]).length > 0) return null;
    const create = `CREATE DATABASE \`${database.replaceAll('`', '``')}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_unicode_ci`;
    try {
      await connection.query(create);
    } catch {
      throw new DatabaseSetupError(
        `database "${database}" does not exist and user "${decodeURIComponent(url.username)}" may not create it: run ${create}`,
      );
    }
    return `created MySQL database "${database}" (utf8mb4)`;
  } finally {
    await connection.end().catch(() => undefined);
  }
}
