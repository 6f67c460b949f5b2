import type { StrategyResponseDto } from '../../src/inbound-context/dto/strategy-response.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { dataOf } from './envelope';

/** The inbound context strategy routes as `user` calls them in a test's setup. */
export const strategyApi = (ctx: TestContext, user: TestUser) => ({
  create: (body: object) =>
    dataOf<StrategyResponseDto>(
      'POST /inbound_context_strategy/create',
      ctx.http().post('/inbound_context_strategy/create').set(user.auth).send(body),
    ),
  details: (id: string) =>
    dataOf<StrategyResponseDto>(
      'GET /inbound_context_strategy/details',
      ctx.http().get(`/inbound_context_strategy/details/${id}`).set(user.auth),
    ),
});
