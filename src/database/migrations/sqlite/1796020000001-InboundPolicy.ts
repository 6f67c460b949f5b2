import type { MigrationInterface, QueryRunner } from 'typeorm';

/** A mapping may carry an inbound policy: opening hours, closing days, caller rules, a cap on calls. */
export class InboundPolicy1796020000001 implements MigrationInterface {
  name = 'InboundPolicy1796020000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" ADD COLUMN "policy" text`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "inbound_mappings" DROP COLUMN "policy"`);
  }
}
