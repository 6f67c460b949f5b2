import type { DataSource, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { onAccumulatedWrites, onCommittedWrites, type TrackedWrite } from './committed-writes';

const newDataSource = () =>
  ({ subscribers: [] as EntitySubscriberInterface[] }) as unknown as DataSource;
const runner = (isTransactionActive: boolean) =>
  ({ isTransactionActive, data: {} }) as unknown as QueryRunner;
/** The outermost COMMIT or ROLLBACK (`active` false), or a new transaction on the runner. */
const setActive = (queryRunner: QueryRunner, active: boolean) => {
  (queryRunner as { isTransactionActive: boolean }).isTransactionActive = active;
};
const end = (queryRunner: QueryRunner) => setActive(queryRunner, false);
const event = (table: string, queryRunner: QueryRunner, entity?: object, loaded?: object) =>
  ({ metadata: { tableName: table }, queryRunner, entity, databaseEntity: loaded }) as never;

function setup() {
  const dataSource = newDataSource();
  let told = 0;
  let settle: () => void = () => undefined;
  onCommittedWrites(
    dataSource,
    ['assistants'],
    () => new Promise<void>((resolve) => (settle = () => resolve(((told += 1), undefined)))),
  );
  const [subscriber] = dataSource.subscribers;
  return { subscriber, runner, end, event, told: () => told, settle: () => settle() };
}

describe(onCommittedWrites.name, () => {
  it('tells the listener after a write outside a transaction, and returns its promise for TypeORM to await', async () => {
    const { subscriber, runner, event, told, settle } = setup();
    for (const hook of ['afterInsert', 'afterUpdate', 'afterRemove'] as const) {
      const pending = subscriber[hook]!(event('assistants', runner(false)));
      expect(pending).toBeInstanceOf(Promise);
      settle();
      await pending;
    }
    expect(told()).toBe(3);
  });

  it('inside a transaction, tells it once after the outermost commit, not after a savepoint or a rollback', async () => {
    const { subscriber, runner, end, event, told, settle } = setup();
    const tx = runner(true);
    expect(subscriber.afterInsert!(event('assistants', tx))).toBeUndefined();
    expect(subscriber.afterUpdate!(event('assistants', tx))).toBeUndefined();
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();
    end(tx);
    const committed = subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    settle();
    await committed;
    expect(told()).toBe(1);
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();

    const rolledBack = runner(true);
    expect(subscriber.afterRemove!(event('assistants', rolledBack))).toBeUndefined();
    end(rolledBack);
    void subscriber.afterTransactionRollback!({ queryRunner: rolledBack } as never);
    expect(
      subscriber.afterTransactionCommit!({ queryRunner: rolledBack } as never),
    ).toBeUndefined();
    expect(told()).toBe(1);
  });

  it('keeps a write in a savepoint rolled back for the outermost commit, drops it when that rolls back too', async () => {
    const { subscriber, runner, end, event, told, settle } = setup();
    const rollBack = (queryRunner: QueryRunner) =>
      void subscriber.afterTransactionRollback!({ queryRunner } as never);
    // A savepoint's rollback leaves the transaction active: the outer one may still commit.
    const committed = runner(true);
    expect(subscriber.afterInsert!(event('assistants', committed))).toBeUndefined();
    rollBack(committed);
    end(committed);
    const told1 = subscriber.afterTransactionCommit!({ queryRunner: committed } as never);
    settle();
    await told1;
    expect(told()).toBe(1);

    const rolledBack = runner(true);
    expect(subscriber.afterInsert!(event('assistants', rolledBack))).toBeUndefined();
    rollBack(rolledBack);
    end(rolledBack);
    rollBack(rolledBack);
    expect(
      subscriber.afterTransactionCommit!({ queryRunner: rolledBack } as never),
    ).toBeUndefined();
    expect(told()).toBe(1);
  });

  it('ignores tables it does not watch', () => {
    const { subscriber, runner, event } = setup();
    expect(subscriber.afterInsert!(event('activity_logs', runner(false)))).toBeUndefined();
    const tx = runner(true);
    expect(subscriber.afterUpdate!(event('activity_logs', tx))).toBeUndefined();
    expect(tx.data).toEqual({});
  });

  it('keeps two watchers of one transaction apart', async () => {
    const dataSource = { subscribers: [] as EntitySubscriberInterface[] } as unknown as DataSource;
    const told: string[] = [];
    onCommittedWrites(dataSource, ['assistants'], () => void told.push('assistants'));
    onCommittedWrites(dataSource, ['tools'], () => void told.push('tools'));
    const tx = { isTransactionActive: true, data: {} } as unknown as QueryRunner;
    for (const subscriber of dataSource.subscribers)
      expect(
        subscriber.afterInsert!({ metadata: { tableName: 'tools' }, queryRunner: tx } as never),
      ).toBeUndefined();
    (tx as { isTransactionActive: boolean }).isTransactionActive = false;
    for (const subscriber of dataSource.subscribers)
      await subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    expect(told).toEqual(['tools']);
  });
});

describe(onAccumulatedWrites.name, () => {
  type Told = { value: TrackedWrite[]; runner: QueryRunner };

  /** A tracker of `tables` that collects every write, and the calls of its listener. */
  function track(dataSource: DataSource, tables: string[]) {
    const told: Told[] = [];
    const accumulator = {
      tables,
      start: (): TrackedWrite[] => [],
      add: (value: TrackedWrite[], write: TrackedWrite) => [...value, write],
    };
    onAccumulatedWrites(dataSource, accumulator, (value, runner) => {
      told.push({ value, runner });
      return Promise.resolve();
    });
    return { subscriber: dataSource.subscribers.at(-1)!, told };
  }

  it('tells the listener once after the outermost commit, with every row written in the transaction', async () => {
    const dataSource = newDataSource();
    const { subscriber, told } = track(dataSource, ['assistants']);
    const tx = runner(true);
    expect(subscriber.afterInsert!(event('assistants', tx, { id: 1 }))).toBeUndefined();
    expect(subscriber.afterUpdate!(event('assistants', tx, { n: 2 }, { id: 2 }))).toBeUndefined();
    expect(subscriber.afterRemove!(event('assistants', tx, { id: 3 }, { id: 3 }))).toBeUndefined();
    // A released savepoint: the transaction goes on.
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();
    expect(told).toEqual([]);
    end(tx);
    await subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    expect(told).toEqual([
      {
        value: [
          { table: 'assistants', rows: [{ id: 1 }] },
          { table: 'assistants', rows: [{ n: 2 }, { id: 2 }] },
          { table: 'assistants', rows: [{ id: 3 }, { id: 3 }] },
        ],
        runner: tx,
      },
    ]);
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();

    // The next transaction on the same runner starts from an empty value.
    setActive(tx, true);
    void subscriber.afterInsert!(event('assistants', tx, { id: 4 }));
    end(tx);
    await subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    expect(told.map(({ value }) => value)).toEqual([
      expect.any(Array),
      [{ table: 'assistants', rows: [{ id: 4 }] }],
    ]);
  });

  it('tells nothing after a rollback, and keeps nothing of it for the next transaction', async () => {
    const dataSource = newDataSource();
    const { subscriber, told } = track(dataSource, ['assistants']);
    const tx = runner(true);
    void subscriber.afterInsert!(event('assistants', tx, { id: 1 }));
    end(tx);
    void subscriber.afterTransactionRollback!({ queryRunner: tx } as never);
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();
    expect(told).toEqual([]);

    setActive(tx, true);
    void subscriber.afterInsert!(event('assistants', tx, { id: 2 }));
    end(tx);
    await subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    expect(told.map(({ value }) => value)).toEqual([[{ table: 'assistants', rows: [{ id: 2 }] }]]);
  });

  it('outside a transaction, tells it at once with that write alone, and returns its promise', async () => {
    const dataSource = newDataSource();
    const { subscriber, told } = track(dataSource, ['assistants']);
    const alone = runner(false);
    const pending = subscriber.afterInsert!(event('assistants', alone, { id: 1 }));
    expect(pending).toBeInstanceOf(Promise);
    await pending;
    await subscriber.afterUpdate!(event('assistants', alone, { n: 2 }, { id: 2 }));
    expect(subscriber.afterInsert!(event('tools', alone, { id: 3 }))).toBeUndefined();
    expect(told).toEqual([
      { value: [{ table: 'assistants', rows: [{ id: 1 }] }], runner: alone },
      { value: [{ table: 'assistants', rows: [{ n: 2 }, { id: 2 }] }], runner: alone },
    ]);
  });

  it('keeps two listeners on different tables apart in one transaction', async () => {
    const dataSource = newDataSource();
    const assistants = track(dataSource, ['assistants']);
    const tools = track(dataSource, ['tools']);
    const tx = runner(true);
    for (const { subscriber } of [assistants, tools]) {
      void subscriber.afterInsert!(event('assistants', tx, { id: 1 }));
      void subscriber.afterInsert!(event('tools', tx, { id: 2 }));
    }
    end(tx);
    for (const { subscriber } of [assistants, tools])
      await subscriber.afterTransactionCommit!({ queryRunner: tx } as never);
    expect(assistants.told.map(({ value }) => value)).toEqual([
      [{ table: 'assistants', rows: [{ id: 1 }] }],
    ]);
    expect(tools.told.map(({ value }) => value)).toEqual([[{ table: 'tools', rows: [{ id: 2 }] }]]);

    const onlyTools = runner(true);
    for (const { subscriber } of [assistants, tools])
      void subscriber.afterInsert!(event('tools', onlyTools, { id: 3 }));
    end(onlyTools);
    for (const { subscriber } of [assistants, tools])
      await subscriber.afterTransactionCommit!({ queryRunner: onlyTools } as never);
    expect(assistants.told).toHaveLength(1);
    expect(tools.told).toHaveLength(2);
  });
});
