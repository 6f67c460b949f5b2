import { Logger } from '@nestjs/common';
import type { DataSource, EntityManager, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { ConfigChanges, type ChangedResource, type ConfigChanged } from './config-changes';

function setup() {
  const dataSource = { subscribers: [] as EntitySubscriberInterface[] };
  const changes = new ConfigChanges(dataSource as unknown as DataSource);
  const told: { change: ConfigChanged; runner: QueryRunner | undefined }[] = [];
  changes.on((change, runner) => void told.push({ change, runner }));
  const runner = (isTransactionActive: boolean) =>
    ({ isTransactionActive, data: {} }) as unknown as QueryRunner & {
      isTransactionActive: boolean;
    };
  const em = (queryRunner?: QueryRunner) => ({ queryRunner }) as unknown as EntityManager;
  const [subscriber] = dataSource.subscribers;
  const commit = (queryRunner: QueryRunner) =>
    subscriber.afterTransactionCommit!({ queryRunner } as never);
  const rollback = (queryRunner: QueryRunner) =>
    subscriber.afterTransactionRollback!({ queryRunner } as never);
  return { changes, told, runner, em, commit, rollback, subscribes: subscriber === changes };
}

const res = (user_id: string, resource_type: ChangedResource['resource_type']) => ({
  user_id,
  resource_type,
  resource_id: `${resource_type}-1`,
});

const sorted = (set: ReadonlySet<string>) => [...set].sort();

describe(ConfigChanges.name, () => {
  it('subscribes itself to the data source', () => {
    expect(setup().subscribes).toBe(true);
  });

  it('tells once, after the outermost commit, every owner and kind its entries named', async () => {
    const { changes, told, runner, em, commit } = setup();
    const tx = runner(true);
    await changes.recorded(em(tx), res('u-1', 'inbound'));
    await changes.recorded(em(tx), res('u-2', 'assistant'));
    await changes.recorded(em(tx), res('u-1', 'inbound'));
    await commit(tx); // a released savepoint: the transaction is still open
    expect(told).toEqual([]);
    tx.isTransactionActive = false;
    await commit(tx);
    expect(told).toHaveLength(1);
    expect(sorted(told[0].change.user_ids)).toEqual(['u-1', 'u-2']);
    expect(sorted(told[0].change.resource_types)).toEqual(['assistant', 'inbound']);
    expect(told[0].change.resources).toEqual([
      res('u-1', 'inbound'),
      res('u-2', 'assistant'),
      res('u-1', 'inbound'),
    ]);
    expect(told[0].runner).toBe(tx);
    await commit(tx); // a later transaction on the same runner that audited nothing
    expect(told).toHaveLength(1);
  });

  it('tells no one of a rolled-back transaction, and forgets it', async () => {
    const { changes, told, runner, em, commit, rollback } = setup();
    const tx = runner(true);
    await changes.recorded(em(tx), res('u-1', 'secret'));
    tx.isTransactionActive = false;
    await rollback(tx);
    await commit(tx);
    expect(told).toEqual([]);
  });

  it('keeps what a rolled-back savepoint recorded: the transaction may still commit', async () => {
    const { changes, told, runner, em, commit, rollback } = setup();
    const tx = runner(true);
    await changes.recorded(em(tx), res('u-1', 'tool'));
    await rollback(tx);
    tx.isTransactionActive = false;
    await commit(tx);
    expect(sorted(told[0].change.resource_types)).toEqual(['tool']);
  });

  it('tells at once, awaited by the writer, of an entry written outside a transaction', async () => {
    const { changes, told, em } = setup();
    let done = false;
    changes.on(
      () =>
        new Promise<void>((resolve) =>
          setImmediate(() => {
            done = true;
            resolve();
          }),
        ),
    );
    await changes.recorded(em(undefined), res('u-1', 'api_key'));
    expect(done).toBe(true);
    expect(told).toEqual([
      {
        change: {
          user_ids: new Set(['u-1']),
          resource_types: new Set(['api_key']),
          resources: [res('u-1', 'api_key')],
        },
        runner: undefined,
      },
    ]);
  });

  it('reports a listener that fails: the change is committed and the writer goes on', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    try {
      const { changes, told, em } = setup();
      changes.on(() => Promise.reject(new Error('redis down')));
      await expect(changes.recorded(em(undefined), res('u-1', 'tool'))).resolves.toBeUndefined();
      expect(told).toHaveLength(1);
      expect(warn).toHaveBeenCalledWith(
        expect.anything(),
        'a configuration change listener failed',
      );
    } finally {
      warn.mockRestore();
    }
  });
});
