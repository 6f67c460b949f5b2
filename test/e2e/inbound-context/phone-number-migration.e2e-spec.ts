/**
 * The migration that makes stored numbers canonical, on a database of its own (MySQL when
 * DATABASE_URL is set, else an SQLite file) holding numbers in the spellings earlier versions kept.
 */
import { rmSync } from 'node:fs';
import { DataSource } from 'typeorm';
import { prepareDatabase } from '../../../src/bootstrap/prepare-database';
import { appDataSourceOptions } from '../../../src/app-data-source';
import { canonicalisePhoneNumbers } from '../../../src/database/migration-steps/canonical-phone-numbers';

const suffix = `${process.pid}_${Date.now() % 1e6}`;
const mysqlUrl = process.env.DATABASE_URL
  ? Object.assign(new URL(process.env.DATABASE_URL), { pathname: `/vac_phone_migration_${suffix}` })
      .href
  : null;
const sqlitePath = `./data/test/phone-migration-${suffix}.sqlite`;

describe(`Canonical phone numbers migration (e2e, ${mysqlUrl ? 'MySQL' : 'SQLite'})`, () => {
  let dataSource: DataSource;

  beforeAll(async () => {
    if (mysqlUrl) await prepareDatabase(mysqlUrl);
    dataSource = new DataSource(
      appDataSourceOptions({
        driver: mysqlUrl ? 'mysql' : 'better-sqlite3',
        url: mysqlUrl,
        replicaUrls: [],
        sqlitePath,
        poolSize: 2,
        migrationsRun: true,
      }),
    );
    await dataSource.initialize();
    await dataSource.runMigrations({ transaction: 'each' });
  }, 60_000);
  afterAll(async () => {
    if (mysqlUrl) await dataSource.query(`DROP DATABASE \`vac_phone_migration_${suffix}\``);
    await dataSource.destroy();
    if (!mysqlUrl) rmSync(sqlitePath, { force: true });
  });

  /** A mapping and, when `holder`, its holder row, as an earlier version stored them. */
  const legacy = async (row: {
    id: string;
    user: string;
    sent: string;
    active: boolean;
    at: string;
    holder?: boolean;
  }) => {
    const digits = row.sent.replace(/\D+/g, '');
    await dataSource.query(
      `INSERT INTO inbound_mappings (inbound_id, user_id, service, inbound_config, phone_number_normalized, is_active, active_phone_number, created_at, updated_at)
       VALUES (?, ?, 'exotel', ?, ?, ?, ?, ?, ?)`,
      [
        row.id,
        row.user,
        JSON.stringify({ phone_number: row.sent }),
        digits,
        row.active ? 1 : 0,
        row.active ? digits : null,
        row.at,
        row.at,
      ],
    );
    if (row.holder)
      await dataSource.query(
        `INSERT INTO phone_number_holders (phone_number_normalized, user_id, created_at) VALUES (?, ?, ?)`,
        [digits, row.user, row.at],
      );
  };

  it('rewrites every spelling to the canonical number; a clash keeps the older holder and says so', async () => {
    // Ada holds +91 80 5555 7546; Bob later took the same number spelled nationally.
    await legacy({
      id: 'm-ada',
      user: 'ada',
      sent: '+91 80 5555 7546',
      active: true,
      at: '2025-01-01 10:00:00',
      holder: true,
    });
    await legacy({
      id: 'm-bob',
      user: 'bob',
      sent: '080 5555 7546',
      active: true,
      at: '2025-02-01 10:00:00',
      holder: true,
    });
    // Cy's number in two spellings of his own: one number, one holder, one active mapping.
    await legacy({
      id: 'm-cy-1',
      user: 'cy',
      sent: '0091 80 1234 5678',
      active: true,
      at: '2025-01-05 10:00:00',
      holder: true,
    });
    await legacy({
      id: 'm-cy-2',
      user: 'cy',
      sent: '+91 80 1234 5678',
      active: false,
      at: '2025-01-06 10:00:00',
    });
    // A number sent with its country code stays what it was, whatever the default region.
    await legacy({
      id: 'm-dee',
      user: 'dee',
      sent: '+1 415 555 2671',
      active: true,
      at: '2025-01-07 10:00:00',
      holder: true,
    });

    const lines: string[] = [];
    const runner = dataSource.createQueryRunner();
    try {
      await canonicalisePhoneNumbers(runner, 'IN', (line) => lines.push(line));
    } finally {
      await runner.release();
    }

    const mappings = await dataSource.query<Record<string, unknown>[]>(
      `SELECT inbound_id, user_id, phone_number_normalized, is_active, active_phone_number FROM inbound_mappings ORDER BY inbound_id`,
    );
    expect(mappings.map((m) => ({ ...m, is_active: Boolean(Number(m.is_active)) }))).toEqual([
      {
        inbound_id: 'm-ada',
        user_id: 'ada',
        phone_number_normalized: '918055557546',
        is_active: true,
        active_phone_number: '918055557546',
      },
      {
        inbound_id: 'm-bob',
        user_id: 'bob',
        phone_number_normalized: '918055557546',
        is_active: false,
        active_phone_number: null,
      },
      {
        inbound_id: 'm-cy-1',
        user_id: 'cy',
        phone_number_normalized: '918012345678',
        is_active: true,
        active_phone_number: '918012345678',
      },
      {
        inbound_id: 'm-cy-2',
        user_id: 'cy',
        phone_number_normalized: '918012345678',
        is_active: false,
        active_phone_number: null,
      },
      {
        inbound_id: 'm-dee',
        user_id: 'dee',
        phone_number_normalized: '14155552671',
        is_active: true,
        active_phone_number: '14155552671',
      },
    ]);
    const holders = await dataSource.query(
      `SELECT phone_number_normalized, user_id FROM phone_number_holders ORDER BY phone_number_normalized`,
    );
    expect(holders).toEqual([
      { phone_number_normalized: '14155552671', user_id: 'dee' },
      { phone_number_normalized: '918012345678', user_id: 'cy' },
      { phone_number_normalized: '918055557546', user_id: 'ada' },
    ]);
    expect(lines).toEqual([
      "phone number 918055557546: held as 918055557546 by user ada and as 08055557546 by user bob; the older holder, user ada, keeps it, and user bob's mappings of it are paused: m-bob",
    ]);

    // Run again: nothing left to change, nothing to say.
    const again: string[] = [];
    const second = dataSource.createQueryRunner();
    await canonicalisePhoneNumbers(second, 'IN', (line) => again.push(line)).finally(() =>
      second.release(),
    );
    expect(again).toEqual([]);
  });
});
