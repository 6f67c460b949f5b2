import type { QueryRunner } from 'typeorm';

/**
 * The server's binary utf8mb4 collation without trailing-space padding, for values compared byte
 * for byte (keys, room names). Outside the migrations folder: TypeORM takes every export of a
 * migration file for a migration.
 */
export async function binaryCollation(queryRunner: QueryRunner): Promise<string> {
  const [{ version }] = (await queryRunner.query('SELECT VERSION() AS version')) as {
    version: string;
  }[];
  if (/mariadb/i.test(version)) return 'utf8mb4_nopad_bin';
  return Number.parseInt(version, 10) >= 8 ? 'utf8mb4_0900_bin' : 'utf8mb4_bin';
}
