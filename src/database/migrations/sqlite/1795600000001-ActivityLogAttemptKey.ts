import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The job attempt an entry records, unique: a crashed attempt's entry is never written twice. */
export class ActivityLogAttemptKey1795600000001 implements MigrationInterface {
  name = 'ActivityLogAttemptKey1795600000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD COLUMN "attempt_key" varchar(64)`);
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_logs_attempt_key" ON "activity_logs" ("attempt_key")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "uq_logs_attempt_key"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "attempt_key"`);
  }
}
