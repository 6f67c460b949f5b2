import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `error_class` and `trace_id` on activity-log entries, each with a per-user filter index. */
export class ActivityLogErrorClassTrace1795490000000 implements MigrationInterface {
  name = 'ActivityLogErrorClassTrace1795490000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` ADD \`error_class\` varchar(16) NULL, ADD \`trace_id\` varchar(32) NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX \`idx_logs_user_error_class_ts\` ON \`activity_logs\` (\`user_id\`, \`error_class\`, \`timestamp\`, \`id\`)`,
    );
    await queryRunner.query(
      `CREATE INDEX \`idx_logs_user_trace_ts\` ON \`activity_logs\` (\`user_id\`, \`trace_id\`, \`timestamp\`, \`id\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_logs_user_trace_ts\` ON \`activity_logs\``);
    await queryRunner.query(`DROP INDEX \`idx_logs_user_error_class_ts\` ON \`activity_logs\``);
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` DROP COLUMN \`trace_id\`, DROP COLUMN \`error_class\``,
    );
  }
}
