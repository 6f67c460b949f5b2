import type { DataSource, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { onCommittedWrites } from './committed-writes';

function setup() {
  const dataSource = { subscribers: [] as EntitySubscriberInterface[] } as unknown as DataSource;
  let told = 0;
  let settle: () => void = () => undefined;
  onCommittedWrites(
    dataSource,
    ['assistants'],
    () => new Promise<void>((resolve) => (settle = () => resolve(((told += 1), undefined)))),
  );
  const [subscriber] = dataSource.subscribers;
  const runner = (isTransactionActive: boolean) =>
    ({ isTransactionActive, data: {} }) as unknown as QueryRunner;
  const end = (queryRunner: QueryRunner) => {
    (queryRunner as { isTransactionActive: boolean }).isTransactionActive = false;
  };
  const event = (table: string, queryRunner: QueryRunner) =>
    ({ metadata: { tableName: table }, queryRunner }) as never;
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
