import type { MigrationInterface, QueryRunner } from 'typeorm';
import { bindSecretOrigins } from '../../migration-steps/bind-secret-origins';

/** Where each secret may be sent; existing secrets bound to the origins that reference them today. */
export class SecretAllowedOrigins1795800000001 implements MigrationInterface {
  name = 'SecretAllowedOrigins1795800000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "secrets" ADD COLUMN "allowed_origins" text`);
    await bindSecretOrigins(queryRunner);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "secrets" DROP COLUMN "allowed_origins"`);
  }
}
