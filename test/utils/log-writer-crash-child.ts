/**
 * Child process of test/e2e/activity-log/activity-log-writes.e2e-spec.ts. Records entries in waves through the real
 * ActivityLogService and prints `committed <id>` for each entry whose `record` resolved; it kills
 * itself (SIGKILL, no cleanup) at batch `CRASH_AFTER_INSERTS`: on SQLite right after its INSERT
 * returned, before its transaction commits; on MySQL, where a batch's transaction is one
 * multi-statement query, right after that query is sent, before its answer (the commit's) is back.
 * Argument: the room name prefix of this run.
 */
import { dirname, join } from 'node:path';
import 'reflect-metadata';
import { DataSource, type QueryRunner } from 'typeorm';
import { ActivityLogEntity } from '../../src/activity-log/activity-log.entity';
import { ActivityLogService } from '../../src/activity-log/activity-log.service';
import { ActivityLogRepository } from '../../src/activity-log/activity-log.repository';
import { appDataSourceOptions } from '../../src/app-data-source';

const CRASH_AFTER_INSERTS = 4;
const WAVES = 20;
const PER_WAVE = 25;
const LOG_INSERT = /^INSERT INTO\W+activity_logs|;\s*INSERT INTO\W+activity_logs/;

/** Kills the process once the `CRASH_AFTER_INSERTS`th batch is on its way to MySQL. */
function crashOnMysqlBatch(): void {
  // By path: mysql2's `exports` map does not publish its internals (the module TypeORM loads).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const BaseConnection = require(
    join(dirname(require.resolve('mysql2')), 'lib/base/connection.js'),
  ) as { prototype: { query: (this: unknown, ...args: unknown[]) => unknown } };
  const query = BaseConnection.prototype.query;
  let inserts = 0;
  BaseConnection.prototype.query = function (this: unknown, ...args: unknown[]) {
    const sent = query.apply(this, args);
    if (typeof args[0] === 'string' && LOG_INSERT.test(args[0])) {
      inserts += 1;
      if (inserts === CRASH_AFTER_INSERTS) process.kill(process.pid, 'SIGKILL');
    }
    return sent;
  };
}

async function main(): Promise<void> {
  const room = process.argv[2];
  const dataSource = await new DataSource({
    ...appDataSourceOptions(),
    logging: false,
  }).initialize();
  if (dataSource.options.type === 'mysql') crashOnMysqlBatch();
  const runner = dataSource.createQueryRunner();
  const proto = Object.getPrototypeOf(runner) as QueryRunner;
  await runner.release();
  const query = proto.query;
  let inserts = 0;
  proto.query = async function (this: QueryRunner, ...args: Parameters<QueryRunner['query']>) {
    const result: unknown = await query.apply(this, args);
    if (args[0].startsWith('INSERT INTO') && args[0].includes('activity_logs')) {
      inserts += 1;
      if (inserts === CRASH_AFTER_INSERTS) process.kill(process.pid, 'SIGKILL');
    }
    return result;
  } as QueryRunner['query'];

  const service = new ActivityLogService(
    new ActivityLogRepository(dataSource.getRepository(ActivityLogEntity)),
  );
  for (let wave = 0; wave < WAVES; wave += 1) {
    await Promise.all(
      Array.from({ length: PER_WAVE }, async (_, i) => {
        const id = await service.record({
          user_id: '00000000-0000-4000-8000-00000000c0de',
          log_type: 'tool_call',
          status: 'success',
          assistant_id: null,
          room_name: `${room}-${wave}-${i}`,
          message: 'm',
          request_data: {},
          response_data: {},
          latency_ms: 1,
        });
        if (id) process.stdout.write(`committed ${id} ${room}-${wave}-${i}\n`);
      }),
    );
  }
  process.stdout.write('not crashed\n');
  await service.onModuleDestroy();
  await dataSource.destroy();
}

void main();
