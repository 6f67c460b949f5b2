import type { Repository } from 'typeorm';
import type { ActivityLogEntity } from './activity-log.entity';

/**
 * A bound on `activity_logs.timestamp` in the form the driver stores the column in: a Date for
 * MySQL, and for SQLite the `YYYY-MM-DD HH:MM:SS.SSS` UTC text TypeORM writes there, so that the
 * comparison is the text comparison the index supports. TypeORM does not convert query parameters
 * itself, and a Date bound on SQLite would compare against the wrong representation.
 */
export function timestampParam(logs: Repository<ActivityLogEntity>, date: Date): unknown {
  const column = logs.metadata.findColumnWithPropertyName('timestamp');
  if (!column) throw new Error('activity_logs.timestamp column metadata missing');
  return logs.manager.connection.driver.preparePersistentValue(date, column);
}
