import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A mapping's environment (production takes only checked versions) and its split's guardrail. */
export class MappingRollout1796030100000 implements MigrationInterface {
  name = 'MappingRollout1796030100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` ADD \`environment\` varchar(16) NULL`);
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` ADD \`guardrail\` json NULL`);
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` ADD \`guardrail_state\` json NULL`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` DROP COLUMN \`guardrail_state\``);
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` DROP COLUMN \`guardrail\``);
    await queryRunner.query(`ALTER TABLE \`inbound_mappings\` DROP COLUMN \`environment\``);
  }
}
