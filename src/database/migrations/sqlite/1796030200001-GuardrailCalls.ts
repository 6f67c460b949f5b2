import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The calls each variant of a guarded split served, and audit entries the service made itself. */
export class GuardrailCalls1796030200001 implements MigrationInterface {
  name = 'GuardrailCalls1796030200001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "split_calls" ("user_id" varchar(36) NOT NULL, "room_name" varchar(255) NOT NULL, "inbound_id" varchar(36) NOT NULL, "variant" integer NOT NULL, "assistant_version" integer, "failed" boolean NOT NULL, "started_at" datetime(6) NOT NULL, PRIMARY KEY ("user_id", "room_name"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_split_calls_inbound" ON "split_calls" ("inbound_id", "started_at") `,
    );
    await queryRunner.query(`ALTER TABLE "audit_entries" ADD COLUMN "actor_system" varchar(32)`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "audit_entries" DROP COLUMN "actor_system"`);
    await queryRunner.query(`DROP INDEX "idx_split_calls_inbound"`);
    await queryRunner.query(`DROP TABLE "split_calls"`);
  }
}
