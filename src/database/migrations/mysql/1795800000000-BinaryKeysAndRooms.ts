import type { MigrationInterface, QueryRunner } from 'typeorm';
import { binaryCollation } from '../../binary-collation';

/**
 * `Idempotency-Key`s and room names compare byte for byte, as on SQLite: the database's default
 * collation (`utf8mb4_unicode_ci`) took `Key`, `key`, `kéy`, `key ` and `key\0` for one value, so
 * two requests with different keys could replay each other's response and a room's log filter
 * matched other rooms. A binary collation without trailing-space padding: `utf8mb4_nopad_bin` on
 * MariaDB, `utf8mb4_0900_bin` on MySQL 8. Rebuilds `activity_logs` (its room index included).
 */
export class BinaryKeysAndRooms1795800000000 implements MigrationInterface {
  name = 'BinaryKeysAndRooms1795800000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    const collation = await binaryCollation(queryRunner);
    await this.collate(queryRunner, collation);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, 'utf8mb4_unicode_ci');
  }

  private async collate(queryRunner: QueryRunner, collation: string): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`idempotency_keys\` MODIFY \`idempotency_key\` varchar(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
    );
    await queryRunner.query(
      `ALTER TABLE \`activity_logs\` MODIFY \`room_name\` varchar(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
    );
  }
}
