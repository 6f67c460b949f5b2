import type { MigrationInterface, QueryRunner } from 'typeorm';

/** How a tool's calls are kept from acting twice; existing tools are `none`, as before. */
export class ToolSideEffects1796110000001 implements MigrationInterface {
  name = 'ToolSideEffects1796110000001';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "tools" ADD COLUMN "side_effect" varchar(16) NOT NULL DEFAULT ('none')`,
    );
    await queryRunner.query(`ALTER TABLE "tools" ADD COLUMN "dedupe_key" text`);
    await queryRunner.query(
      `ALTER TABLE "tools" ADD COLUMN "dedupe_window_seconds" integer NOT NULL DEFAULT (3600)`,
    );
    await queryRunner.query(
      `ALTER TABLE "tools" ADD COLUMN "notify_cancel" boolean NOT NULL DEFAULT (0)`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const column of ['notify_cancel', 'dedupe_window_seconds', 'dedupe_key', 'side_effect'])
      await queryRunner.query(`ALTER TABLE "tools" DROP COLUMN "${column}"`);
  }
}
