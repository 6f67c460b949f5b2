import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The whole body an entry's request sent (what a replay sends again) and the entry a replay repeats. */
export class ActivityLogReplay1795510000001 implements MigrationInterface {
  name = 'ActivityLogReplay1795510000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD COLUMN "request_body" text`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD COLUMN "replay_of" varchar(20)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "replay_of"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "request_body"`);
  }
}
