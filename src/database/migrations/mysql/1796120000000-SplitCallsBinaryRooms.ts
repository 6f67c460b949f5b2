import type { MigrationInterface, QueryRunner } from 'typeorm';
import { binaryCollation } from '../../binary-collation';

/**
 * `split_calls.room_name` compares byte for byte, as every room name does (BinaryKeysAndRooms):
 * under the database's default `_ci` collation, rooms `Room-1` and `room-1` were one call of a
 * guarded split, so one room's failed tool call failed the other's.
 */
export class SplitCallsBinaryRooms1796120000000 implements MigrationInterface {
  name = 'SplitCallsBinaryRooms1796120000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, await binaryCollation(queryRunner));
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await this.collate(queryRunner, 'utf8mb4_unicode_ci');
  }

  private async collate(queryRunner: QueryRunner, collation: string): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE \`split_calls\` MODIFY \`room_name\` varchar(255) CHARACTER SET utf8mb4 COLLATE ${collation} NOT NULL`,
    );
  }
}
