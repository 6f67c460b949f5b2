import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The audit trail: one entry per change to a user's configuration. */
export class AuditEntries1795495000001 implements MigrationInterface {
  name = 'AuditEntries1795495000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "audit_entries" ("id" integer PRIMARY KEY AUTOINCREMENT NOT NULL, "audit_id" varchar(36) NOT NULL, "user_id" varchar(36) NOT NULL, "timestamp" datetime(6) NOT NULL, "action" varchar(16) NOT NULL, "resource_type" varchar(32) NOT NULL, "resource_id" varchar(100) NOT NULL, "actor_user_id" varchar(36), "actor_api_key_id" varchar(36), "request_id" varchar(64), "changes" text NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_audit_audit_id" ON "audit_entries" ("audit_id") `,
    );
    await queryRunner.query(`CREATE INDEX "idx_audit_ts" ON "audit_entries" ("timestamp") `);
    await queryRunner.query(
      `CREATE INDEX "idx_audit_user_resource_ts" ON "audit_entries" ("user_id", "resource_type", "resource_id", "timestamp", "id") `,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_audit_user_ts" ON "audit_entries" ("user_id", "timestamp", "id") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_entries"`);
  }
}
