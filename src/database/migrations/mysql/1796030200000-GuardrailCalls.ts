import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The calls each variant of a guarded split served, and audit entries the service made itself. */
export class GuardrailCalls1796030200000 implements MigrationInterface {
  name = 'GuardrailCalls1796030200000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`split_calls\` (\`user_id\` varchar(36) NOT NULL, \`room_name\` varchar(255) NOT NULL, \`inbound_id\` varchar(36) NOT NULL, \`variant\` int NOT NULL, \`assistant_version\` int NULL, \`failed\` tinyint NOT NULL, \`started_at\` datetime(6) NOT NULL, INDEX \`idx_split_calls_inbound\` (\`inbound_id\`, \`started_at\`), PRIMARY KEY (\`user_id\`, \`room_name\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(`ALTER TABLE \`audit_entries\` ADD \`actor_system\` varchar(32) NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`audit_entries\` DROP COLUMN \`actor_system\``);
    await queryRunner.query(`DROP TABLE \`split_calls\``);
  }
}
