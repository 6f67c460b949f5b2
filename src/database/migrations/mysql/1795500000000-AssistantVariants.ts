import type { MigrationInterface, QueryRunner } from 'typeorm';

/** Inbound mappings may split their calls over versions of the assistant. */
export class AssistantVariants1795500000000 implements MigrationInterface {
  name = 'AssistantVariants1795500000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`inbound_mappings\` ADD \`assistant_variants\` json NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` DROP COLUMN \`assistant_variants\``);
  }
}
