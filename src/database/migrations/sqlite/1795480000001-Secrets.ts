import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Named secrets per user, referenced as `{{secret.NAME}}` by tools, strategies and assistants. */
export class Secrets1795480000001 implements MigrationInterface {
  name = 'Secrets1795480000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "secrets" ("created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "user_id" varchar(36) NOT NULL, "secret_id" varchar(36) PRIMARY KEY NOT NULL, "secret_name" varchar(64) NOT NULL, "value_encrypted" text NOT NULL, "version" integer NOT NULL, "last_used_at" datetime(6))`,
    );
    await queryRunner.query(
      `CREATE UNIQUE INDEX "idx_secrets_user_name" ON "secrets" ("user_id", "secret_name") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_secrets_user_name"`);
    await queryRunner.query(`DROP TABLE "secrets"`);
  }
}
