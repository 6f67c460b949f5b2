import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Published assistant versions, and inbound mappings that pin one. */
export class AssistantVersions1795460000000 implements MigrationInterface {
  name = 'AssistantVersions1795460000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`assistant_versions\` (\`version_id\` varchar(36) NOT NULL, \`assistant_id\` varchar(36) NOT NULL, \`user_id\` varchar(36) NOT NULL, \`version\` int NOT NULL, \`note\` varchar(500) NULL, \`assistant\` json NOT NULL, \`tools\` json NOT NULL, \`published_at\` datetime(6) NOT NULL, UNIQUE INDEX \`uq_assistant_versions_assistant_version\` (\`assistant_id\`, \`version\`), PRIMARY KEY (\`version_id\`)) ENGINE=InnoDB`,
    );
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` ADD \`assistant_version\` int NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` DROP COLUMN \`assistant_version\``);
    await queryRunner.query(
      `DROP INDEX \`uq_assistant_versions_assistant_version\` ON \`assistant_versions\``,
    );
    await queryRunner.query(`DROP TABLE \`assistant_versions\``);
  }
}
