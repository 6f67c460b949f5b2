import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The error class `cancelled` (a tool call withdrawn before its send) gets its endpoint counter. */
export class CancelledErrorClass1796130000001 implements MigrationInterface {
  name = 'CancelledErrorClass1796130000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "activity_log_target_counts" ADD COLUMN "e_cancelled" bigint NOT NULL DEFAULT (0)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "activity_log_target_counts" DROP COLUMN "e_cancelled"`);
  }
}
