import type { LogsPageDto } from '../../src/activity-log/dto/log-entry.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** `GET /logs` as `user` calls it in a test's setup. */
export const logsApi = (ctx: TestContext, user: TestUser) => {
  const page = (query: Record<string, string | number>) =>
    dataOf<LogsPageDto>('GET /logs', ctx.http().get('/logs').query(query).set(user.auth));
  return {
    page,
    /** The one lookup entry of `room` (a test that made one lookup there expects exactly one). */
    async lookupEntryOf(room: string) {
      const { logs } = await page({ log_type: 'inbound_context_lookup', room_name: room });
      expect(logs).toHaveLength(1);
      return logs[0] as (typeof logs)[number] & { response_data: Record<string, unknown> };
    },
  };
};
