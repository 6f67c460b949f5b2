import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Published assistant versions, and inbound mappings that pin one. */
export class AssistantVersions1795460000001 implements MigrationInterface {
  name = 'AssistantVersions1795460000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "assistant_versions" ("version_id" varchar(36) PRIMARY KEY NOT NULL, "assistant_id" varchar(36) NOT NULL, "user_id" varchar(36) NOT NULL, "version" integer NOT NULL, "note" varchar(500), "assistant" text NOT NULL, "tools" text NOT NULL, "published_at" datetime(6) NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "uq_assistant_versions_assistant_version" ON "assistant_versions" ("assistant_id", "version") `,
    );
    await queryRunner.query(
      `ALTER TABLE "inbound_mappings" ADD COLUMN "assistant_version" integer`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "assistant_version"`);
    await queryRunner.query(`DROP INDEX "uq_assistant_versions_assistant_version"`);
    await queryRunner.query(`DROP TABLE "assistant_versions"`);
  }
}
