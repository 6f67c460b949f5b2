import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Tenants' event subscriptions: where their events go, and each one's encrypted signing secret. */
export class EventSubscriptions1796200000000 implements MigrationInterface {
  name = 'EventSubscriptions1796200000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`event_subscriptions\` (\`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), \`user_id\` varchar(36) NOT NULL, \`subscription_id\` varchar(36) NOT NULL, \`url\` varchar(2048) NOT NULL, \`events\` json NOT NULL, \`description\` varchar(500) NULL, \`secret\` varchar(255) NOT NULL, INDEX \`idx_event_subscriptions_user\` (\`user_id\`, \`created_at\`), PRIMARY KEY (\`subscription_id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE \`event_subscriptions\``);
  }
}
