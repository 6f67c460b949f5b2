import type { DataSource, EntitySubscriberInterface, QueryRunner } from 'typeorm';
import { AssistantRepository } from '../../assistant/assistant.repository';
import { AuditTrail } from '../../audit/audit-trail';
import { onRoutingWrites, ROUTING_TABLES, type TouchedOwners } from './routing-writes';

const ROUTING = AssistantRepository.TABLE;
const AUDIT = AuditTrail.TABLE;

function setup() {
  const dataSource = { subscribers: [] as EntitySubscriberInterface[] } as unknown as DataSource;
  const told: { owners: TouchedOwners; runner: QueryRunner }[] = [];
  onRoutingWrites(dataSource, (owners, runner) => void told.push({ owners, runner }));
  const [subscriber] = dataSource.subscribers;
  const runner = (isTransactionActive: boolean) =>
    ({ isTransactionActive, data: {} }) as unknown as QueryRunner;
  const row = (owner?: string) => (owner ? { user_id: owner } : {});
  // The listener here is synchronous: nothing is left for TypeORM to await.
  const insert = (table: string, queryRunner: QueryRunner, owner?: string) =>
    void subscriber.afterInsert!({
      metadata: { tableName: table },
      queryRunner,
      entity: row(owner),
    } as never);
  /** A bulk `update(criteria, values)`: neither the values nor a loaded row name the owner. */
  const bulkUpdate = (table: string, queryRunner: QueryRunner) =>
    void subscriber.afterUpdate!({
      metadata: { tableName: table },
      queryRunner,
      entity: { name: 'x' },
    } as never);
  const commit = (queryRunner: QueryRunner) => {
    (queryRunner as { isTransactionActive: boolean }).isTransactionActive = false;
    void subscriber.afterTransactionCommit!({ queryRunner } as never);
  };
  return { subscriber, told, runner, row, insert, bulkUpdate, commit };
}

describe(onRoutingWrites.name, () => {
  it('watches the routing tables, not the audit table', () => {
    expect(ROUTING_TABLES.has(ROUTING)).toBe(true);
    expect(ROUTING_TABLES.has(AUDIT)).toBe(false);
  });

  it('outside a transaction, tells the owners of the row written at once, with the runner', () => {
    const { told, runner, insert, bulkUpdate } = setup();
    const alone = runner(false);
    insert(ROUTING, alone, 'u1');
    bulkUpdate(ROUTING, alone);
    insert(AUDIT, alone, 'u2');
    insert('activity_logs', alone, 'u3');
    expect(told).toEqual([
      { owners: new Set(['u1']), runner: alone },
      { owners: null, runner: alone },
    ]);
  });

  it('collects the owners of an update or removal from the row as loaded as well', () => {
    const { subscriber, told, runner } = setup();
    const alone = runner(false);
    void subscriber.afterUpdate!({
      metadata: { tableName: ROUTING },
      queryRunner: alone,
      entity: { user_id: 'u1' },
      databaseEntity: { user_id: 'u2' },
    } as never);
    void subscriber.afterRemove!({
      metadata: { tableName: ROUTING },
      queryRunner: alone,
      entity: undefined,
      databaseEntity: { user_id: 'u3' },
    } as never);
    expect(told.map(({ owners }) => owners)).toEqual([new Set(['u1', 'u2']), new Set(['u3'])]);
  });

  it('inside a transaction, tells every owner written once, after the outermost commit', () => {
    const { subscriber, told, runner, insert, commit } = setup();
    const tx = runner(true);
    insert(ROUTING, tx, 'u1');
    insert(ROUTING, tx, 'u2');
    insert(AUDIT, tx, 'u3');
    expect(subscriber.afterTransactionCommit!({ queryRunner: tx } as never)).toBeUndefined();
    expect(told).toEqual([]);
    commit(tx);
    expect(told).toEqual([{ owners: new Set(['u1', 'u2']), runner: tx }]);
  });

  it('a bulk update that names no owner stands on the owners of the audit entries of its transaction', () => {
    const { told, runner, insert, bulkUpdate, commit } = setup();
    const audited = runner(true);
    insert(ROUTING, audited, 'u1');
    bulkUpdate(ROUTING, audited);
    insert(AUDIT, audited, 'u2');
    commit(audited);
    const unaudited = runner(true);
    insert(ROUTING, unaudited, 'u1');
    bulkUpdate(ROUTING, unaudited);
    commit(unaudited);
    expect(told.map(({ owners }) => owners)).toEqual([new Set(['u1', 'u2']), null]);
  });

  it('tells nothing for a transaction that wrote only audit entries, nor after a rollback', () => {
    const { subscriber, told, runner, insert, commit } = setup();
    const auditOnly = runner(true);
    insert(AUDIT, auditOnly, 'u1');
    commit(auditOnly);
    const rolledBack = runner(true);
    insert(ROUTING, rolledBack, 'u1');
    (rolledBack as { isTransactionActive: boolean }).isTransactionActive = false;
    void subscriber.afterTransactionRollback!({ queryRunner: rolledBack } as never);
    commit(rolledBack);
    expect(told).toEqual([]);
  });
});
