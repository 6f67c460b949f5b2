import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * One row that the first process to start writes under its SECRETS_ENCRYPTION_KEY: every later
 * start checks its key against it, whether or not any secret is stored yet.
 */
export class SecretKeyCheck1796130000001 implements MigrationInterface {
  name = 'SecretKeyCheck1796130000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "secret_key_check" ("id" varchar(16) PRIMARY KEY NOT NULL, "value_encrypted" text NOT NULL, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "secret_key_check"`);
  }
}
