import type { MigrationInterface, QueryRunner } from 'typeorm';

/** `error_class` and `trace_id` on activity-log entries, each with a per-user filter index. */
export class ActivityLogErrorClassTrace1795490000001 implements MigrationInterface {
  name = 'ActivityLogErrorClassTrace1795490000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD COLUMN "error_class" varchar(16)`);
    await queryRunner.query(`ALTER TABLE "activity_logs" ADD COLUMN "trace_id" varchar(32)`);
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_error_class_ts" ON "activity_logs" ("user_id", "error_class", "timestamp", "id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_logs_user_trace_ts" ON "activity_logs" ("user_id", "trace_id", "timestamp", "id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_logs_user_trace_ts"`);
    await queryRunner.query(`DROP INDEX "idx_logs_user_error_class_ts"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "trace_id"`);
    await queryRunner.query(`ALTER TABLE "activity_logs" DROP COLUMN "error_class"`);
  }
}
