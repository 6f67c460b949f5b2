import { DataSource } from 'typeorm';
import { ConfigChanges } from '../audit/config-changes';
import { runTransaction } from '../database/transaction';

const count = async (dataSource: DataSource): Promise<number> =>
  Number((await dataSource.query<Array<{ n: number }>>('SELECT COUNT(*) AS n FROM t'))[0].n);

/** What apply relies on: a service's own transaction joins the one apply opened. */
describe('runTransaction inside another', () => {
  let dataSource: DataSource;
  let changes: ConfigChanges;
  let heard: string[];
  const change = { user_id: 'u', resource_type: 'tool', resource_id: 'r' } as const;

  beforeEach(async () => {
    dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
    }).initialize();
    await dataSource.query('CREATE TABLE t (v TEXT)');
    changes = new ConfigChanges(dataSource);
    heard = [];
    changes.on(() => {
      heard.push('told');
    });
  });
  afterEach(() => dataSource.destroy());

  /** A service's own write: its transaction, an entry, as every audited change makes. */
  const write = (value: string) =>
    runTransaction(dataSource, async (em) => {
      await em.query('INSERT INTO t (v) VALUES (?)', [value]);
      await changes.recorded(em, change);
      heard.push(`wrote ${value}`);
    });

  it('joins the outer transaction: listeners are told once, after the outer commit', async () => {
    await runTransaction(dataSource, async (outer) => {
      await write('a');
      await runTransaction(dataSource, async (inner) => {
        expect(inner).toBe(outer);
        await write('b');
      });
      heard.push('outer done');
    });
    expect(heard).toEqual(['wrote a', 'wrote b', 'outer done', 'told']);
    expect(await count(dataSource)).toBe(2);
  });

  it('rolls back the joined writes with the outer transaction, and tells no one', async () => {
    await expect(
      runTransaction(dataSource, async () => {
        await write('a');
        await write('b');
        throw new Error('a later change fails');
      }),
    ).rejects.toThrow('a later change fails');
    expect(heard).toEqual(['wrote a', 'wrote b']);
    expect(await count(dataSource)).toBe(0);
  });

  it('runs a transaction of its own when called after the outer one has ended', async () => {
    let later: Promise<void> | undefined;
    await runTransaction(dataSource, () => {
      later = new Promise<void>((resolve) => setTimeout(resolve, 10)).then(() => write('later'));
      return Promise.resolve();
    });
    await later;
    expect(heard).toEqual(['wrote later', 'told']);
    expect(await count(dataSource)).toBe(1);
  });
});
