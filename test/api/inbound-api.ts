import type { InboundResponseDto } from '../../src/inbound-context/dto/inbound-response.dto';
import type { StrategyResponseDto } from '../../src/inbound-context/dto/strategy-response.dto';
import { inboundBody } from '../fixtures/inbound';
import type { TestContext, TestUser } from '../utils/create-test-app';
import { resourceApi } from './envelope';
import { strategyApi } from './strategy-api';

/** The inbound mapping routes as `user` calls them in a test's setup. */
export const inboundApi = (ctx: TestContext, user: TestUser) => {
  const { post, details } = resourceApi<InboundResponseDto, InboundResponseDto>(
    ctx,
    user,
    'inbound',
    'assign',
  );
  return { assign: post, details };
};

export interface RoutedNumber {
  strategy: StrategyResponseDto;
  phone: string;
  inboundId: string;
}

/** A strategy from `strategy` (a create body) and an active mapping routing a fresh number to `assistantId` through it. */
export async function routeNumber(
  ctx: TestContext,
  user: TestUser,
  assistantId: string,
  strategy: object,
): Promise<RoutedNumber> {
  const created = await strategyApi(ctx, user).create(strategy);
  const body = inboundBody(assistantId, { inbound_context_strategy_id: created.strategy_id });
  const mapping = await inboundApi(ctx, user).assign(body);
  return {
    strategy: created,
    phone: body.inbound_config.phone_number,
    inboundId: mapping.inbound_id,
  };
}
