import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The kept first responses of requests sent with an `Idempotency-Key`. */
export class IdempotencyKeys1795485000001 implements MigrationInterface {
  name = 'IdempotencyKeys1795485000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "idempotency_keys" ("owner_id" varchar(36) NOT NULL, "idempotency_key" varchar(255) NOT NULL, "fingerprint" varchar(64) NOT NULL, "state" varchar(8) NOT NULL, "response_status" integer, "response_body" text, "created_at" datetime(6) NOT NULL, "expires_at" datetime(6) NOT NULL, PRIMARY KEY ("owner_id", "idempotency_key"))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_idempotency_keys_expires" ON "idempotency_keys" ("expires_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_idempotency_keys_expires"`);
    await queryRunner.query(`DROP TABLE "idempotency_keys"`);
  }
}
