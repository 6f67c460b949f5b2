import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import 'reflect-metadata';
import { DataSource, In, type Logger as OrmLogger, type Repository } from 'typeorm';
import { ActivityLogEntity } from '../../../src/activity-log/activity-log.entity';
import {
  ActivityLogService,
  type ActivityLogInput,
} from '../../../src/activity-log/activity-log.service';
import { ActivityLogRepository } from '../../../src/activity-log/activity-log.repository';
import { appDataSourceOptions } from '../../../src/app-data-source';
import { logEntryInput } from '../../utils/log-entry-input';

/**
 * Group commit of activity-log entries on the real database of the run (MySQL, or the embedded
 * SQLite file): concurrent entries share INSERT statements, each caller gets its own entry's id,
 * one bad entry does not drop the others, and a process killed before a batch commits has
 * reported no entry that is not stored.
 */
describe('activity log group commit (e2e)', () => {
  let dataSource: DataSource;
  let repo: Repository<ActivityLogEntity>;
  let service: ActivityLogService;
  const statements: string[] = [];
  const userId = randomUUID();

  const entry = (room: string, over: Partial<ActivityLogInput> = {}) =>
    logEntryInput(userId, room, over);

  beforeAll(async () => {
    const logger: OrmLogger = {
      logQuery: (sql) => {
        statements.push(sql);
      },
      logQueryError: () => undefined,
      logQuerySlow: () => undefined,
      logSchemaBuild: () => undefined,
      logMigration: () => undefined,
      log: () => undefined,
    };
    dataSource = await new DataSource({
      ...appDataSourceOptions(),
      logging: ['query'],
      logger,
    }).initialize();
    if (dataSource.options.type !== 'mysql') await dataSource.runMigrations();
    repo = dataSource.getRepository(ActivityLogEntity);
    service = new ActivityLogService(new ActivityLogRepository(repo));
  });

  afterAll(async () => {
    await service.onModuleDestroy();
    await dataSource.destroy();
  });

  const inserts = () => statements.filter((sql) => /^INSERT INTO\W+activity_logs/.test(sql)).length;

  it('inserts concurrent entries in shared statements and gives each caller its own id', async () => {
    const rooms = Array.from({ length: 60 }, (_, i) => `group-${i}-${randomUUID()}`);
    const before = inserts();
    const ids = await Promise.all(rooms.map((room) => service.record(entry(room))));
    const statementsUsed = inserts() - before;
    expect(statementsUsed).toBeGreaterThan(0);
    expect(statementsUsed).toBeLessThanOrEqual(3);
    expect(new Set(ids).size).toBe(rooms.length);
    const rows = await repo.find({ where: { id: In(ids as string[]) } });
    const roomOf = new Map(rows.map((row) => [String(row.id), row.room_name]));
    rooms.forEach((room, i) => expect(roomOf.get(ids[i] as string)).toBe(room));
    const row = rows.find((r) => r.room_name === rooms[0]);
    expect(row).toMatchObject({
      message: `message of ${rooms[0]}`,
      request_data: { room: rooms[0] },
      response_data: { ok: true },
      latency_ms: 3,
    });
  });

  it('writes the good entries of a batch that holds a bad one, and resolves the bad one to null', async () => {
    const reported = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    const rooms = Array.from({ length: 10 }, (_, i) => `mixed-${i}-${randomUUID()}`);
    const ids = await Promise.all(
      rooms.map((room, i) =>
        // NOT NULL violation: fails on both drivers.
        service.record(entry(room, i === 4 ? { user_id: null as unknown as string } : {})),
      ),
    );
    expect(ids[4]).toBeNull();
    expect(reported).toHaveBeenCalledTimes(1);
    expect(reported.mock.calls[0][1]).toBe('activity log write failed');
    reported.mockRestore();
    const good = ids.filter((id): id is string => id !== null);
    expect(good).toHaveLength(9);
    const rows = await repo.find({ where: { room_name: In(rooms) } });
    expect(rows.map((r) => String(r.id)).sort()).toEqual([...good].sort());
  });

  it('a process killed between a batch and its commit has completed no entry that is missing', async () => {
    const room = `crash-${randomUUID()}`;
    const output = await new Promise<{ stdout: string; signal: NodeJS.Signals | null }>(
      (resolve, reject) => {
        const child = spawn(
          process.execPath,
          ['-r', 'ts-node/register/transpile-only', 'test/utils/log-writer-crash-child.ts', room],
          { env: process.env, stdio: ['ignore', 'pipe', 'inherit'] },
        );
        let stdout = '';
        child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
        child.on('error', reject);
        child.on('close', (_code, signal) => resolve({ stdout, signal }));
      },
    );
    expect(output.signal).toBe('SIGKILL');
    const completed = output.stdout
      .split('\n')
      .filter((line) => line.startsWith('committed '))
      .map((line) => {
        const [, id, roomName] = line.split(' ');
        return { id, roomName };
      });
    expect(completed.length).toBeGreaterThan(0);
    const stored = await repo
      .createQueryBuilder('l')
      .where('l.room_name LIKE :prefix', { prefix: `${room}-%` })
      .getMany();
    const storedRoom = new Map(stored.map((row) => [String(row.id), row.room_name]));
    for (const { id, roomName } of completed) expect(storedRoom.get(id)).toBe(roomName);
    // The batch whose commit the kill interrupted is not there.
    expect(stored.length).toBeLessThan(20 * 25);
  }, 60_000);
});
