import type { LogsPageDto } from '../../src/activity-log/dto/log-entry.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** `GET /logs` as `user` calls it in a test's setup. */
export const logsApi = (ctx: TestContext, user: TestUser) => ({
  page: (query: Record<string, string | number>) =>
    dataOf<LogsPageDto>('GET /logs', ctx.http().get('/logs').query(query).set(user.auth)),
});
