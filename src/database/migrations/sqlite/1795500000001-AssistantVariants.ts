import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Inbound mappings may split their calls over versions of the assistant. */
export class AssistantVariants1795500000001 implements MigrationInterface {
  name = 'AssistantVariants1795500000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" ADD COLUMN "assistant_variants" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "assistant_variants"`);
  }
}
