import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A mapping's environment (production takes only checked versions) and its split's guardrail. */
export class MappingRollout1796030100001 implements MigrationInterface {
  name = 'MappingRollout1796030100001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" ADD COLUMN "environment" varchar(16)`);
    await queryRunner.query(`ALTER TABLE "inbound_mappings" ADD COLUMN "guardrail" text`);
    await queryRunner.query(`ALTER TABLE "inbound_mappings" ADD COLUMN "guardrail_state" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "guardrail_state"`);
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "guardrail"`);
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "environment"`);
  }
}
