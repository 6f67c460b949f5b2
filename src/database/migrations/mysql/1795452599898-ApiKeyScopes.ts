import type { MigrationInterface, QueryRunner } from 'typeorm';

/** API keys get scopes. Keys made before scopes existed could call every route: they keep both. */
export class ApiKeyScopes1795452599898 implements MigrationInterface {
  name = 'ApiKeyScopes1795452599898';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`api_keys\` ADD \`scopes\` varchar(32) NOT NULL DEFAULT 'config'`,
    );
    await queryRunner.query(`UPDATE \`api_keys\` SET \`scopes\` = 'config,runtime'`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`api_keys\` DROP COLUMN \`scopes\``);
  }
}
