import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Named secrets per user, referenced as `{{secret.NAME}}` by tools, strategies and assistants. */
export class Secrets1795480000000 implements MigrationInterface {
  name = 'Secrets1795480000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE TABLE \`secrets\` (\`created_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6), \`updated_at\` datetime(6) NOT NULL DEFAULT CURRENT_TIMESTAMP(6) ON UPDATE CURRENT_TIMESTAMP(6), \`user_id\` varchar(36) NOT NULL, \`secret_id\` varchar(36) NOT NULL, \`secret_name\` varchar(64) NOT NULL, \`value_encrypted\` text NOT NULL, \`version\` int NOT NULL, \`last_used_at\` datetime(6) NULL, UNIQUE INDEX \`idx_secrets_user_name\` (\`user_id\`, \`secret_name\`), PRIMARY KEY (\`secret_id\`)) ENGINE=InnoDB`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX \`idx_secrets_user_name\` ON \`secrets\``);
    await queryRunner.query(`DROP TABLE \`secrets\``);
  }
}
