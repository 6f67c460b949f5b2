import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Where activity-log ids come from on MySQL (src/activity-log/log-ids.ts): one row whose `next_id`
 * each process advances by a block, so an entry's id is known before the entry is stored. It starts
 * above every id stored.
 */
export class ActivityLogSequence1795700000000 implements MigrationInterface {
  name = 'ActivityLogSequence1795700000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`activity_log_sequence\` (\`name\` varchar(32) NOT NULL, \`next_id\` bigint NOT NULL, PRIMARY KEY (\`name\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(
      `INSERT INTO \`activity_log_sequence\` (\`name\`, \`next_id\`) SELECT 'activity_logs', COALESCE(MAX(\`id\`), 0) + 1 FROM \`activity_logs\``,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`activity_log_sequence\``);
  }
}
