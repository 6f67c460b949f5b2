import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants' event subscriptions: where their events go, and each one's encrypted signing secret. */
export class EventSubscriptions1796200000001 implements MigrationInterface {
  name = 'EventSubscriptions1796200000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE "event_subscriptions" ("created_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "updated_at" datetime(6) NOT NULL DEFAULT (datetime('now')), "user_id" varchar(36) NOT NULL, "subscription_id" varchar(36) PRIMARY KEY NOT NULL, "url" varchar(2048) NOT NULL, "events" text NOT NULL, "description" varchar(500), "secret" varchar(255) NOT NULL)`,
    );
    await queryRunner.query(
      `CREATE INDEX "idx_event_subscriptions_user" ON "event_subscriptions" ("user_id", "created_at") `,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "idx_event_subscriptions_user"`);
    await queryRunner.query(`DROP TABLE "event_subscriptions"`);
  }
}
