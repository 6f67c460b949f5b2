import type { MigrationInterface, QueryRunner } from 'typeorm';
import { bindSecretOrigins } from '../../migration-steps/bind-secret-origins';

/** Where each secret may be sent; existing secrets bound to the origins that reference them today. */
export class SecretAllowedOrigins1795800000000 implements MigrationInterface {
  name = 'SecretAllowedOrigins1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`secrets\` ADD \`allowed_origins\` json NULL`);
    await bindSecretOrigins(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`secrets\` DROP COLUMN \`allowed_origins\``);
  }
}
