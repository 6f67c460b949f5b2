import type { AssistantEntity } from '../../assistant/assistant.entity';
import type { InboundMappingEntity } from '../../inbound-context/inbound-mapping.entity';
import type { ResolvedMapping } from '../../inbound-context/lookup.repository';
import type { StrategyConfig } from '../../inbound-context/utils/read-strategy-config.util';
import {
  buildPayload,
  callVariables,
  decideLookup,
  mappingKey,
  RESULT_DELIVERY_MARGIN_MS,
  routeLookup,
} from './lookup-plan.util';

describe('route and payload', () => {
  const mapping = {
    inbound_id: 'm-1',
    user_id: 'u-1',
    assistant_id: 'a-1',
    inbound_context_strategy_id: 's-1',
    phone_number_normalized: '918012345678',
  } as InboundMappingEntity;
  const assistant = { assistant_id: 'a-1', assistant_name: 'Support' } as AssistantEntity;
  const found: ResolvedMapping = { mapping, assistant, version: 4, strategy: null, owner: null };

  describe('mappingKey', () => {
    it('names a mapping by id, else by the normalized number', () => {
      expect(mappingKey({ room_name: 'r', inbound_id: 'm-1', inbound_number: '+1 555' })).toBe(
        'id:m-1',
      );
      expect(mappingKey({ room_name: 'r', inbound_number: '+1 (555) 0100' })).toBe(
        'number:15550100',
      );
    });
  });

  describe('routeLookup', () => {
    it('routes to the pinned assistant and strategy, with the result fields and call values', () => {
      const route = routeLookup(found, { room_name: 'room-1', caller_number: '+1555' });
      expect(route).toMatchObject({
        mapping,
        assistant,
        version: 4,
        variant: null,
        strategyId: 's-1',
        base: {
          assistant_id: 'a-1',
          assistant_name: 'Support',
          assistant_version: 4,
          variant: null,
          inbound_id: 'm-1',
          strategy_id: 's-1',
        },
        call: { room_name: 'room-1', caller_number: '+1555', inbound_id: 'm-1' },
      });
    });

    it("keeps the mapping's assistant id when its assistant is gone", () => {
      const route = routeLookup({ ...found, assistant: null }, { room_name: 'room-1' });
      expect(route.base).toMatchObject({ assistant_id: 'a-1', assistant_name: null });
    });
  });

  describe('buildPayload', () => {
    it("is the spec's webhook body; caller_number only when the job has one", () => {
      const strategy = { strategy_name: 'CRM', strategy_type: 'webhook' as const };
      expect(buildPayload({ room_name: 'r' }, mapping, assistant, strategy, 's-1')).toEqual({
        assistant_id: 'a-1',
        assistant_name: 'Support',
        room_name: 'r',
        strategy_id: 's-1',
        strategy_name: 'CRM',
        strategy_type: 'webhook',
        call_type: 'inbound',
        service: 'exotel',
        inbound_id: 'm-1',
        inbound_number: '918012345678',
      });
      expect(
        buildPayload({ room_name: 'r', caller_number: '+1' }, mapping, null, null, 's-1'),
      ).toMatchObject({
        assistant_id: 'a-1',
        assistant_name: '',
        strategy_name: '',
        caller_number: '+1',
      });
    });
  });

  describe('callVariables', () => {
    it('holds the values the payload carries', () => {
      expect(callVariables({ room_name: 'r' }, mapping)).toEqual({
        caller_number: null,
        inbound_number: '918012345678',
        room_name: 'r',
        inbound_id: 'm-1',
        call_type: 'inbound',
      });
    });
  });
});

describe('decideLookup', () => {
  const config: StrategyConfig = {
    url: 'https://crm.example.com/context',
    headers: { 'X-Tenant': 'acme' },
    timeout_seconds: 3,
    fallback_context: null,
  };
  const route = { assistant: { assistant_id: 'a-1' }, strategy: { is_active: true } };
  const request = (over: Partial<StrategyConfig> = {}) => ({
    strategy_id: 's-1',
    config: { ...config, ...over },
  });
  const NOW = 1_000_000;
  const LATER = NOW + 60_000;

  it('calls the webhook with the strategy timeout when time is plenty', () => {
    expect(decideLookup(route, request(), LATER, NOW)).toEqual({
      call: { ...config, url: config.url, timeout_seconds: 3 },
    });
  });

  it('cuts the timeout to what is left before the deadline, less the delivery margin', () => {
    const deadline = NOW + RESULT_DELIVERY_MARGIN_MS + 1_500;
    expect(decideLookup(route, request(), deadline, NOW)).toMatchObject({
      call: { timeout_seconds: 1.5 },
    });
  });

  it.each([
    [{ assistant: null }, 'assistant_not_found', 'the inbound mapping has no assistant'],
    [{ strategy: null }, 'strategy_not_found', 'strategy s-1 no longer exists'],
    [
      { strategy: { is_active: false } },
      'strategy_inactive',
      'the strategy is inactive; the webhook was not called',
    ],
  ])('fails without a call: %j → %s', (over, kind, message) => {
    expect(decideLookup({ ...route, ...over }, request(), LATER, NOW)).toEqual({
      outcome: { ok: false, kind, message, latency_ms: 0 },
    });
  });

  it('fails missing_url for a strategy without a URL', () => {
    expect(decideLookup(route, request({ url: null }), LATER, NOW)).toEqual({
      outcome: {
        ok: false,
        kind: 'missing_url',
        message: 'the strategy has no URL; the webhook was not called',
        latency_ms: 0,
      },
    });
  });

  it('fails expired once inside the delivery margin, saying by how much the deadline passed', () => {
    const inMargin = decideLookup(route, request(), NOW + RESULT_DELIVERY_MARGIN_MS, NOW);
    expect(inMargin).toMatchObject({
      outcome: {
        kind: 'expired',
        message:
          "the producer's deadline passed 0 ms before the lookup started; the webhook was not called",
      },
    });
    expect(decideLookup(route, request(), NOW - 40, NOW)).toMatchObject({
      outcome: { kind: 'expired', message: expect.stringContaining('passed 40 ms') },
    });
  });

  it('checks in order: assistant, strategy, active, URL, deadline', () => {
    const everythingWrong = { assistant: null, strategy: { is_active: false } };
    expect(decideLookup(everythingWrong, request({ url: null }), NOW - 1, NOW)).toMatchObject({
      outcome: { kind: 'assistant_not_found' },
    });
    expect(
      decideLookup({ ...route, strategy: { is_active: false } }, request({ url: null }), NOW, NOW),
    ).toMatchObject({ outcome: { kind: 'strategy_inactive' } });
    expect(decideLookup(route, request({ url: null }), NOW, NOW)).toMatchObject({
      outcome: { kind: 'missing_url' },
    });
  });
});
