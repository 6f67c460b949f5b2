import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Endpoint health counters (`GET /logs/health`): per user, UTC hour, URL origin and log type.
 * Entries written before this migration are not counted (their error class is unknown).
 */
export class ActivityLogTargetCounts1795490100001 implements MigrationInterface {
  name = 'ActivityLogTargetCounts1795490100001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "activity_log_target_counts" ("user_id" varchar(36) NOT NULL, "hour" varchar(13) NOT NULL, "origin" varchar(300) NOT NULL, "log_type" varchar(32) NOT NULL, "attempts" bigint NOT NULL, "errors" bigint NOT NULL, "e_timeout" bigint NOT NULL DEFAULT 0, "e_network" bigint NOT NULL DEFAULT 0, "e_http_4xx" bigint NOT NULL DEFAULT 0, "e_auth" bigint NOT NULL DEFAULT 0, "e_http_5xx" bigint NOT NULL DEFAULT 0, "e_invalid_response" bigint NOT NULL DEFAULT 0, "e_blocked" bigint NOT NULL DEFAULT 0, "e_config" bigint NOT NULL DEFAULT 0, "e_internal" bigint NOT NULL DEFAULT 0, "l_0" bigint NOT NULL DEFAULT 0, "l_1" bigint NOT NULL DEFAULT 0, "l_2" bigint NOT NULL DEFAULT 0, "l_3" bigint NOT NULL DEFAULT 0, "l_4" bigint NOT NULL DEFAULT 0, "l_5" bigint NOT NULL DEFAULT 0, "l_6" bigint NOT NULL DEFAULT 0, "l_7" bigint NOT NULL DEFAULT 0, "l_8" bigint NOT NULL DEFAULT 0, "l_9" bigint NOT NULL DEFAULT 0, "l_10" bigint NOT NULL DEFAULT 0, "l_11" bigint NOT NULL DEFAULT 0, "l_12" bigint NOT NULL DEFAULT 0, "l_13" bigint NOT NULL DEFAULT 0, "latency_max_ms" int NOT NULL, "last_success_at" datetime NULL, "last_error_at" datetime NULL, PRIMARY KEY ("user_id", "hour", "origin", "log_type"))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "activity_log_target_counts"`);
  }
}
