/** What of an error may be written to the service log. */
export interface LoggableError {
  /** The error's class name (`QueryFailedError`, `TypeError`...). */
  type: string;
  /** The driver's or the system's error code (`ER_DUP_ENTRY`, `SQLITE_CONSTRAINT`, `ECONNREFUSED`). */
  code?: string;
  /** MySQL's numeric error code and SQLSTATE. */
  errno?: number;
  sql_state?: string;
  /** Code locations of the stack (the `at ...` lines), without its first line, the message. */
  stack?: string[];
  /** The same summary of the error this one wraps (a driver error, an `Error.cause`). */
  cause?: LoggableError;
}

const MAX_FRAMES = 8;
const MAX_CAUSES = 3;
const CODE = /^[A-Za-z0-9_.-]{1,64}$/;

/**
 * The part of `error` that is safe to log: its class, its codes and its stack frames. Never the
 * message or any other property: a database error quotes the statement's values in both (`Duplicate
 * entry '…'`, TypeORM's `parameters` and `query`), provider keys and header values included, and an
 * HTTP client error carries the request it made. Whatever the error, the log line tells where it
 * happened and what kind it is; the `error_id` beside it ties it to the answer the client got.
 */
export function loggableError(error: unknown, depth = 0): LoggableError {
  if (error === null || typeof error !== 'object') return { type: typeof error };
  const fields = error as {
    code?: unknown;
    errno?: unknown;
    sqlState?: unknown;
    stack?: unknown;
    driverError?: unknown;
    cause?: unknown;
  };
  const out: LoggableError = { type: className(error) };
  if (typeof fields.code === 'string' && CODE.test(fields.code)) out.code = fields.code;
  else if (typeof fields.code === 'number' && Number.isInteger(fields.code))
    out.code = String(fields.code);
  if (typeof fields.errno === 'number' && Number.isInteger(fields.errno)) out.errno = fields.errno;
  if (typeof fields.sqlState === 'string' && CODE.test(fields.sqlState))
    out.sql_state = fields.sqlState;
  const frames = stackFrames(fields.stack);
  if (frames.length) out.stack = frames;
  const inner = fields.driverError ?? fields.cause;
  if (inner !== undefined && inner !== error && depth < MAX_CAUSES)
    out.cause = loggableError(inner, depth + 1);
  return out;
}

function className(error: object): string {
  const name = (error as { constructor?: { name?: unknown } }).constructor?.name;
  return typeof name === 'string' && CODE.test(name) ? name : 'Object';
}

/** `at fn (/path/file.js:1:2)`, `at /path/file.js:1:2`, `at async fn (node:internal/x:1:2)`. */
const FRAME = /^at (?:[\w$.<>[\] ]{1,200} \()?(?:node:|file:|\/)[^\s()]{1,500}:\d+:\d+\)?$/;

/** The frames of a V8 stack: code locations only. The message, which may span lines, is left out. */
function stackFrames(stack: unknown): string[] {
  if (typeof stack !== 'string') return [];
  return stack
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => FRAME.test(line))
    .slice(0, MAX_FRAMES);
}
