import type { StrategyResponseDto } from '../../src/inbound-context/dto/strategy-response.dto';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { resourceApi } from './envelope';

/** The inbound context strategy routes as `user` calls them in a test's setup. */
export const strategyApi = (ctx: TestContext, user: TestUser) => {
  const { post, details } = resourceApi<StrategyResponseDto, StrategyResponseDto>(
    ctx,
    user,
    'inbound_context_strategy',
  );
  return { create: post, details };
};
