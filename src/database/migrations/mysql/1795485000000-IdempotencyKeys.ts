import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The kept first responses of requests sent with an `Idempotency-Key`. */
export class IdempotencyKeys1795485000000 implements MigrationInterface {
  name = 'IdempotencyKeys1795485000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`idempotency_keys\` (\`owner_id\` varchar(36) NOT NULL, \`idempotency_key\` varchar(255) NOT NULL, \`fingerprint\` varchar(64) NOT NULL, \`state\` varchar(8) NOT NULL, \`response_status\` int NULL, \`response_body\` mediumtext NULL, \`created_at\` datetime(6) NOT NULL, \`expires_at\` datetime(6) NOT NULL, INDEX \`idx_idempotency_keys_expires\` (\`expires_at\`), PRIMARY KEY (\`owner_id\`, \`idempotency_key\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_idempotency_keys_expires\` ON \`idempotency_keys\``);
    await queryRunner.query(`DROP TABLE \`idempotency_keys\``);
  }
}
