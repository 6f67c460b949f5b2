import type { MigrationInterface, QueryRunner } from 'typeorm';

/** How a tool's calls are kept from acting twice; existing tools are `none`, as before. */
export class ToolSideEffects1796110000000 implements MigrationInterface {
  name = 'ToolSideEffects1796110000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`tools\` ADD \`side_effect\` varchar(16) NOT NULL DEFAULT 'none', ADD \`dedupe_key\` json NULL, ADD \`dedupe_window_seconds\` int NOT NULL DEFAULT 3600, ADD \`notify_cancel\` tinyint NOT NULL DEFAULT 0`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`tools\` DROP COLUMN \`side_effect\`, DROP COLUMN \`dedupe_key\`, DROP COLUMN \`dedupe_window_seconds\`, DROP COLUMN \`notify_cancel\``,
    );
  }
}
