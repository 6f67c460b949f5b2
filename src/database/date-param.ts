import type { ObjectLiteral, Repository } from 'typeorm';

/**
 * A Date as a query parameter compared with `repo`'s column `property`, in the form the driver
 * stores that column: a Date for MySQL, the `YYYY-MM-DD HH:MM:SS.SSS` UTC text TypeORM writes on
 * SQLite, where a comparison is a text comparison.
 */
export function dateParam<E extends ObjectLiteral>(
  repo: Repository<E>,
  property: keyof E & string,
  date: Date,
): unknown {
  const column = repo.metadata.findColumnWithPropertyName(property);
  if (!column) throw new Error(`${repo.metadata.tableName}.${property} column metadata missing`);
  return repo.manager.connection.driver.preparePersistentValue(date, column);
}
