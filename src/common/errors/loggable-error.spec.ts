import { QueryFailedError } from 'typeorm';
import { loggableError } from './loggable-error';

const SECRET = 'sk_live_provider_key_0123456789abcdef';

/** A mysql2 error as TypeORM wraps it: message, query and parameters all quote the values. */
function queryFailed(code: string, errno: number): QueryFailedError {
  const driverError = Object.assign(
    new Error(`Incorrect string value: '${SECRET}' for column 'assistant_tts_config' at row 1`),
    { code, errno, sqlState: 'HY000', sql: `INSERT ... VALUES ('${SECRET}')`, sqlMessage: SECRET },
  );
  return new QueryFailedError(
    'INSERT INTO `assistants` (`assistant_tts_config`) VALUES (?)',
    [`{"api_key":"${SECRET}"}`],
    driverError,
  );
}

describe(loggableError.name, () => {
  it('keeps the class, the codes and the stack frames of a database error', () => {
    const summary = loggableError(queryFailed('ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', 1366));
    expect(summary).toMatchObject({
      type: 'QueryFailedError',
      code: 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD',
      errno: 1366,
      sql_state: 'HY000',
      cause: { type: 'Error', code: 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', errno: 1366 },
    });
    expect(summary.stack?.[0]).toMatch(/^at .*loggable-error\.spec\.ts:\d+:\d+\)?$/);
  });

  it('leaves out the message, the query and the parameters, which quote the values', () => {
    const text = JSON.stringify(loggableError(queryFailed('ER_DUP_ENTRY', 1062)));
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('INSERT');
    expect(text).not.toContain('Incorrect string');
  });

  it('leaves out message lines that look like stack frames', () => {
    const error = new Error(`bad value\n    at ${SECRET}\n    at x (${SECRET}:1:1)`);
    const text = JSON.stringify(loggableError(error));
    expect(text).not.toContain(SECRET);
  });

  it('follows Error.cause, and keeps only a well-formed code', () => {
    const error = new Error('outer', {
      cause: Object.assign(new Error(SECRET), { code: `ECONNREFUSED ${SECRET}` }),
    });
    const summary = loggableError(error);
    expect(summary.cause).toMatchObject({ type: 'Error' });
    expect(summary.cause?.code).toBeUndefined();
    expect(JSON.stringify(summary)).not.toContain(SECRET);
  });

  it('summarises thrown values that are not objects by their type alone', () => {
    expect(loggableError(SECRET)).toEqual({ type: 'string' });
    expect(loggableError(undefined)).toEqual({ type: 'undefined' });
  });
});
