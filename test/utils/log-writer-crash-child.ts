/**
 * Child process of test/e2e/activity-log/activity-log-writes.e2e-spec.ts. Records entries in waves through the real
 * ActivityLogService and prints `committed <id>` for each entry whose `record` resolved; it kills
 * itself (SIGKILL, no cleanup) right after the INSERT of batch `CRASH_AFTER_INSERTS` returned, before
 * that batch's transaction commits. Argument: the room name prefix of this run.
 */
import 'reflect-metadata';
import { DataSource, type QueryRunner } from 'typeorm';
import { ActivityLogEntity } from '../../src/activity-log/activity-log.entity';
import { ActivityLogService } from '../../src/activity-log/activity-log.service';
import { ActivityLogRepository } from '../../src/activity-log/activity-log.repository';
import { appDataSourceOptions } from '../../src/app-data-source';

const CRASH_AFTER_INSERTS = 4;
const WAVES = 20;
const PER_WAVE = 25;

async function main(): Promise<void> {
  const room = process.argv[2];
  const dataSource = await new DataSource({
    ...appDataSourceOptions(),
    logging: false,
  }).initialize();
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
  await dataSource.destroy();
}

void main();
