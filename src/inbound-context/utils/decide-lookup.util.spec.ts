import { decideLookup, RESULT_DELIVERY_MARGIN_MS } from './decide-lookup.util';
import type { StrategyConfig } from './read-strategy-config.util';

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

describe('decideLookup', () => {
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
