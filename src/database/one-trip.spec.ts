import { QueryFailedError, type DataSource } from 'typeorm';
import { OneTripTransactions } from './one-trip';

type Answer = { error: Error } | { results: unknown };

/** A mysql2 pool of one connection that answers each query with the next of `answers`. */
function fakeMysql(answers: Answer[], replication?: { master: unknown }) {
  const sent: [string, unknown[]][] = [];
  const connection = {
    query: jest.fn((sql: string, params: unknown[], cb: (e: Error | null, r?: unknown) => void) => {
      sent.push([sql, params]);
      const answer = answers.shift() ?? { results: [] };
      process.nextTick(() => ('error' in answer ? cb(answer.error) : cb(null, answer.results)));
    }),
    release: jest.fn(),
    destroy: jest.fn(),
  };
  const pool = {
    getConnection: jest.fn((cb: (e: Error | null, c: unknown) => void) => cb(null, connection)),
    end: jest.fn((cb: (e: Error | null) => void) => cb(null)),
  };
  const options = { url: 'mysql://replica-or-not', replication, maxQueryExecutionTime: undefined };
  const driver = {
    options,
    mysql: { createPool: jest.fn(() => pool) },
    createConnectionOptions: jest.fn((_options: unknown, credentials: unknown) => ({
      credentials,
      connectionLimit: 20,
      timezone: 'Z',
    })),
  };
  const logger = { logQuery: jest.fn(), logQueryError: jest.fn(), logQuerySlow: jest.fn() };
  const dataSource = { driver, logger } as unknown as DataSource;
  return { dataSource, driver, pool, connection, sent, logger };
}

describe(OneTripTransactions.name, () => {
  const statements = [
    { sql: 'INSERT INTO a (x) VALUES (?)', params: [1] },
    { sql: 'UPDATE b SET y = ? WHERE z = ?', params: [2, 3] },
  ];

  it('sends the transaction as one query and answers each statement', async () => {
    const db = fakeMysql([{ results: ['begin', 'insert', 'update', 'commit'] }]);
    const trips = new OneTripTransactions(db.dataSource, 3);
    await expect(trips.run(statements)).resolves.toEqual(['insert', 'update']);
    expect(db.sent).toEqual([
      [
        'START TRANSACTION;\nINSERT INTO a (x) VALUES (?);\nUPDATE b SET y = ? WHERE z = ?;\nCOMMIT',
        [1, 2, 3],
      ],
    ]);
    expect(db.connection.release).toHaveBeenCalledTimes(1);
    expect(db.driver.mysql.createPool).toHaveBeenCalledWith({
      credentials: db.driver.options,
      connectionLimit: 3,
      timezone: 'Z',
      multipleStatements: true,
    });
    expect(db.logger.logQuery.mock.calls.map(([sql]) => sql as string)).toEqual([
      'START TRANSACTION',
      statements[0].sql,
      statements[1].sql,
      'COMMIT',
    ]);
  });

  it("connects to the primary's credentials when replicas are configured", async () => {
    const master = { url: 'mysql://primary' };
    const db = fakeMysql([{ results: [] }], { master });
    await new OneTripTransactions(db.dataSource, 2).run(statements);
    expect(db.driver.createConnectionOptions).toHaveBeenCalledWith(db.driver.options, master);
    expect(db.driver.mysql.createPool).toHaveBeenCalledTimes(1);
  });

  it('rolls a failed transaction back on its connection before giving the connection back', async () => {
    const duplicate = Object.assign(new Error('Duplicate entry'), { code: 'ER_DUP_ENTRY' });
    const db = fakeMysql([{ error: duplicate }, { results: {} }]);
    const error = await new OneTripTransactions(db.dataSource, 2).run(statements).catch((e) => e);
    expect(error).toBeInstanceOf(QueryFailedError);
    expect((error as QueryFailedError).driverError).toBe(duplicate);
    expect(db.sent.map(([sql]) => sql)).toEqual([expect.any(String), 'ROLLBACK']);
    expect(db.connection.release).toHaveBeenCalledTimes(1);
    expect(db.connection.destroy).not.toHaveBeenCalled();
    expect(db.logger.logQueryError).toHaveBeenCalledTimes(1);
  });

  it('destroys the connection when even the rollback fails', async () => {
    const db = fakeMysql([{ error: new Error('lock wait timeout') }, { error: new Error('gone') }]);
    await expect(new OneTripTransactions(db.dataSource, 2).run(statements)).rejects.toThrow(
      'lock wait timeout',
    );
    expect(db.connection.destroy).toHaveBeenCalledTimes(1);
    expect(db.connection.release).not.toHaveBeenCalled();
  });

  it('closes its pool, and opens none when it never ran', async () => {
    const idle = fakeMysql([]);
    await new OneTripTransactions(idle.dataSource, 2).end();
    expect(idle.driver.mysql.createPool).not.toHaveBeenCalled();
    const db = fakeMysql([{ results: [] }]);
    const trips = new OneTripTransactions(db.dataSource, 2);
    await trips.run(statements);
    await trips.end();
    expect(db.pool.end).toHaveBeenCalledTimes(1);
  });
});
