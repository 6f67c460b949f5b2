import type { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Phone numbers belong to the user who first assigned them. Existing numbers go to the user of
 * their active mapping, else of their oldest one.
 */
export class PhoneNumberHolders1795470000001 implements MigrationInterface {
  name = 'PhoneNumberHolders1795470000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "phone_number_holders" ("phone_number_normalized" varchar(32) PRIMARY KEY NOT NULL, "user_id" varchar(36) NOT NULL, "created_at" datetime(6) NOT NULL DEFAULT (datetime('now')))`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_phone_holders_user" ON "phone_number_holders" ("user_id") `,
    );
    await queryRunner.query(
      `INSERT INTO "phone_number_holders" ("phone_number_normalized", "user_id", "created_at")
       SELECT m."phone_number_normalized", m."user_id", m."created_at" FROM "inbound_mappings" m
       WHERE m."inbound_id" = (
         SELECT f."inbound_id" FROM "inbound_mappings" f
         WHERE f."phone_number_normalized" = m."phone_number_normalized"
         ORDER BY f."is_active" DESC, f."created_at" ASC, f."inbound_id" ASC LIMIT 1)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_phone_holders_user"`);
    await queryRunner.query(`DROP TABLE "phone_number_holders"`);
  }
}
