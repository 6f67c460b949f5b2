import type { DataSource, EntityTarget, ObjectLiteral } from 'typeorm';
import type { ColumnMetadata } from 'typeorm/metadata/ColumnMetadata';

/**
 * Hot reads of one entity without the query builder: the column list and table are written into
 * SQL once, and each row is turned into the entity's shape with the driver's own value conversion
 * (dates, JSON, booleans), column by column. `find()` builds and aliases a query and runs the
 * full result transformer on every call, which costs more than the query on a hot route.
 * `where` is SQL with `?` placeholders (both drivers use them).
 */
export class LeanReader<E extends ObjectLiteral> {
  private readonly columns: ColumnMetadata[];
  private readonly select: string;

  constructor(
    private readonly dataSource: DataSource,
    entity: EntityTarget<E>,
  ) {
    const metadata = dataSource.getMetadata(entity);
    const escape = (name: string) => dataSource.driver.escape(name);
    this.columns = metadata.columns;
    this.select = `SELECT ${this.columns.map((c) => escape(c.databaseName)).join(', ')} FROM ${escape(metadata.tableName)}`;
  }

  async find(where: string, params: unknown[]): Promise<E[]> {
    const rows = await this.dataSource.query<Record<string, unknown>[]>(
      `${this.select} ${where}`,
      params,
    );
    const driver = this.dataSource.driver;
    return rows.map((raw) => {
      const entity: Record<string, unknown> = {};
      for (const column of this.columns) {
        entity[column.propertyName] = driver.prepareHydratedValue(raw[column.databaseName], column);
      }
      return entity as E;
    });
  }
}
