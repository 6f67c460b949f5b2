import type { MigrationInterface, QueryRunner } from 'typeorm';

/** The error class `cancelled` (a tool call withdrawn before its send) gets its endpoint counter. */
export class CancelledErrorClass1796130000000 implements MigrationInterface {
  name = 'CancelledErrorClass1796130000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_log_target_counts\` ADD \`e_cancelled\` bigint NOT NULL DEFAULT 0 AFTER \`e_internal\``,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`activity_log_target_counts\` DROP COLUMN \`e_cancelled\``,
    );
  }
}
