import { MigrationInterface, QueryRunner } from 'typeorm';

const COLUMNS = `"user_id" varchar(36) NOT NULL, "day" date NOT NULL, "log_type" varchar(32) NOT NULL, "status" varchar(16) NOT NULL, "assistant_id" varchar(36) NOT NULL`;

/**
 * The per-day counters keyed by error class too ('' for entries without one), so `GET /logs`
 * totals with `error_class` are counter sums like the other filters. The counters are rebuilt from
 * the entries in the migration's transaction.
 */
export class ActivityLogCountsErrorClass1795650000001 implements MigrationInterface {
  name = 'ActivityLogCountsErrorClass1795650000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "activity_log_counts"`);
    await queryRunner.query(
      `CREATE TABLE "activity_log_counts" (${COLUMNS}, "error_class" varchar(16) NOT NULL, "entries" bigint NOT NULL, PRIMARY KEY ("user_id", "day", "log_type", "status", "assistant_id", "error_class"))`,
    );
    // Timestamps are UTC text, `YYYY-MM-DD HH:MM:SS.SSS`.
    await queryRunner.query(
      `INSERT INTO "activity_log_counts" ("user_id", "day", "log_type", "status", "assistant_id", "error_class", "entries") SELECT "user_id", substr("timestamp", 1, 10), "log_type", "status", COALESCE("assistant_id", ''), COALESCE("error_class", ''), COUNT(*) FROM "activity_logs" GROUP BY "user_id", substr("timestamp", 1, 10), "log_type", "status", COALESCE("assistant_id", ''), COALESCE("error_class", '')`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "activity_log_counts"`);
    await queryRunner.query(
      `CREATE TABLE "activity_log_counts" (${COLUMNS}, "entries" bigint NOT NULL, PRIMARY KEY ("user_id", "day", "log_type", "status", "assistant_id"))`,
    );
    await queryRunner.query(
      `INSERT INTO "activity_log_counts" ("user_id", "day", "log_type", "status", "assistant_id", "entries") SELECT "user_id", substr("timestamp", 1, 10), "log_type", "status", COALESCE("assistant_id", ''), COUNT(*) FROM "activity_logs" GROUP BY "user_id", substr("timestamp", 1, 10), "log_type", "status", COALESCE("assistant_id", '')`,
    );
  }
}
