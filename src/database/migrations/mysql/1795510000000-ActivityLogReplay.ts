import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole body an entry's request sent (what a replay sends again) and the entry a replay repeats. */
export class ActivityLogReplay1795510000000 implements MigrationInterface {
  name = 'ActivityLogReplay1795510000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` ADD \`request_body\` mediumtext NULL, ADD \`replay_of\` varchar(20) NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` DROP COLUMN \`replay_of\`, DROP COLUMN \`request_body\``,
    );
  }
}
