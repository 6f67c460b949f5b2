import { randomUUID } from 'node:crypto';
import 'reflect-metadata';
import { DataSource } from 'typeorm';
import { ActivityLogEntity } from '../../../src/activity-log/activity-log.entity';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../../../src/activity-log/activity-log.service';
import { ActivityLogRepository } from '../../../src/activity-log/activity-log.repository';
import { LogIdBlocks } from '../../../src/activity-log/log-ids';
import { appDataSourceOptions } from '../../../src/app-data-source';
import { logEntryInput } from '../../utils/log-entry-input';

/**
 * Activity-log ids on MySQL come from blocks reserved in `activity_log_sequence`: known before an
 * entry is inserted, never given twice across processes, and stepping over rows written by other
 * means.
 */
(process.env.DATABASE_URL ? describe : describe.skip)('activity log ids (e2e)', () => {
  let dataSource: DataSource;
  let service: ActivityLogService;
  const userId = randomUUID();

  const entry = (room: string, over: Partial<ActivityLogInput> = {}) =>
    logEntryInput(userId, room, over);

  const roomsStored = async (room: string) =>
    dataSource.query<{ id: string | number }[]>(
      'SELECT `id` FROM `activity_logs` WHERE `user_id` = ? AND `room_name` = ?',
      [userId, room],
    );

  beforeAll(async () => {
    dataSource = await new DataSource(appDataSourceOptions()).initialize();
    service = new ActivityLogService(
      new ActivityLogRepository(dataSource.getRepository(ActivityLogEntity)),
    );
  });

  afterAll(async () => {
    await service.onModuleDestroy();
    await dataSource.destroy();
  });

  it('gives two processes disjoint ids, above every id stored', async () => {
    const [{ above }] = await dataSource.query<{ above: string | null }[]>(
      'SELECT MAX(`id`) AS above FROM `activity_logs`',
    );
    const a = new LogIdBlocks(dataSource, 50);
    const b = new LogIdBlocks(dataSource, 50);
    const ids = await Promise.all(Array.from({ length: 300 }, (_, i) => (i % 2 ? a : b).take()));
    expect(new Set(ids).size).toBe(300);
    expect(Math.min(...ids.map(Number))).toBeGreaterThan(Number(above ?? 0));
  });

  it('steps over an id that a row written by other means holds', async () => {
    // The next id of this process's block, held by a row written by other means.
    const last = await service.record(entry(`before-${randomUUID()}`));
    const taken = String(Number(last) + 1);
    const foreign = `foreign-${randomUUID()}`;
    await dataSource.query(
      "INSERT INTO `activity_logs` (`id`, `user_id`, `log_type`, `status`, `room_name`, `timestamp`, `message`, `request_data`, `response_data`, `latency_ms`) VALUES (?, ?, 'inbound_context_lookup', 'success', ?, NOW(3), 'restored', '{}', '{}', 1)",
      [taken, userId, foreign],
    );
    const room = `after-${randomUUID()}`;
    const id = await service.record(entry(room));
    expect(id).toMatch(/^\d+$/);
    expect(id).not.toBe(taken);
    expect((await roomsStored(room)).map((r) => String(r.id))).toEqual([id]);
    expect((await roomsStored(foreign)).map((r) => String(r.id))).toEqual([taken]);
  });
});
