import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `\`user_id\` varchar(36) NOT NULL, \`day\` date NOT NULL, \`log_type\` varchar(32) NOT NULL, \`status\` varchar(16) NOT NULL, \`assistant_id\` varchar(36) NOT NULL`;

/**
 * The per-day counters keyed by error class too ('' for entries without one), so `GET /logs`
 * totals with `error_class` are counter sums like the other filters. The counters are rebuilt from
 * the entries: a new table, filled, then swapped in by one atomic RENAME.
 */
export class ActivityLogCountsErrorClass1795650000000 implements MigrationInterface {
  name = 'ActivityLogCountsErrorClass1795650000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS \`activity_log_counts_next\``);
    await queryRunner.query(
      `CREATE TABLE \`activity_log_counts_next\` (${COLUMNS}, \`error_class\` varchar(16) NOT NULL, \`entries\` bigint NOT NULL, PRIMARY KEY (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`, \`error_class\`)) ENGINE=InnoDB`,
    );
    // Timestamps are UTC.
    await queryRunner.query(
      `INSERT INTO \`activity_log_counts_next\` (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`, \`error_class\`, \`entries\`) SELECT \`user_id\`, DATE(\`timestamp\`), \`log_type\`, \`status\`, COALESCE(\`assistant_id\`, ''), COALESCE(\`error_class\`, ''), COUNT(*) FROM \`activity_logs\` GROUP BY \`user_id\`, DATE(\`timestamp\`), \`log_type\`, \`status\`, COALESCE(\`assistant_id\`, ''), COALESCE(\`error_class\`, '')`,
    );
    await queryRunner.query(
      `RENAME TABLE \`activity_log_counts\` TO \`activity_log_counts_prev\`, \`activity_log_counts_next\` TO \`activity_log_counts\``,
    );
    await queryRunner.query(`DROP TABLE \`activity_log_counts_prev\``);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE IF EXISTS \`activity_log_counts_next\``);
    await queryRunner.query(
      `CREATE TABLE \`activity_log_counts_next\` (${COLUMNS}, \`entries\` bigint NOT NULL, PRIMARY KEY (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `INSERT INTO \`activity_log_counts_next\` (\`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`, \`entries\`) SELECT \`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\`, SUM(\`entries\`) FROM \`activity_log_counts\` GROUP BY \`user_id\`, \`day\`, \`log_type\`, \`status\`, \`assistant_id\``,
    );
    await queryRunner.query(
      `RENAME TABLE \`activity_log_counts\` TO \`activity_log_counts_prev\`, \`activity_log_counts_next\` TO \`activity_log_counts\``,
    );
    await queryRunner.query(`DROP TABLE \`activity_log_counts_prev\``);
  }
}
