import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The job attempt an entry records, unique: a crashed attempt's entry is never written twice. */
export class ActivityLogAttemptKey1795600000000 implements MigrationInterface {
  name = 'ActivityLogAttemptKey1795600000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` ADD \`attempt_key\` varchar(64) NULL, ADD UNIQUE INDEX \`uq_logs_attempt_key\` (\`attempt_key\`)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` DROP INDEX \`uq_logs_attempt_key\`, DROP COLUMN \`attempt_key\``,
    );
  }
}
