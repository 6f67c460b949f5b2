import { Test } from '@nestjs/testing';
import { ActivityLogService } from '../activity-log/activity-log.service';
import { AssistantRepository, type AssistantRecord } from '../assistant/assistant.repository';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { applyAssistantDefaults } from '../assistant/utils/apply-assistant-defaults.util';
import { noSecrets } from '../secret/testing/no-secrets';
import { SecretReferences } from '../secret/secret-references';
import { InboundContextLookupService } from './inbound-context-lookup.service';
import type { InboundContextStrategyEntity } from './inbound-context-strategy.entity';
import { InboundContextStrategyService } from './inbound-context-strategy.service';
import type { InboundMappingEntity } from './inbound-mapping.entity';
import { LookupCache } from './lookup-cache';
import { LookupRepository, type ResolvedMapping } from './lookup.repository';

const CREATED = new Date('2030-01-01T00:00:00Z');

const mapping: InboundMappingEntity = {
  inbound_id: 'm-1',
  user_id: 'u-1',
  assistant_id: 'a-1',
  assistant_version: null,
  inbound_context_strategy_id: 's-1',
  service: 'exotel',
  inbound_config: { phone_number: '+91 80 1234 5678' },
  phone_number_normalized: '918012345678',
  is_active: true,
  active_phone_number: '918012345678',
  created_at: CREATED,
  updated_at: CREATED,
};

const assistant: AssistantRecord = {
  assistant_id: 'a-1',
  user_id: 'u-1',
  ...applyAssistantDefaults({
    assistant_name: 'Support',
    assistant_description: 'd',
    assistant_prompt: 'Hello {{context.name}}',
  }),
  created_at: CREATED,
  updated_at: CREATED,
};

const strategy: InboundContextStrategyEntity = {
  strategy_id: 's-1',
  user_id: 'u-1',
  strategy_name: 'CRM',
  strategy_type: 'webhook',
  strategy_config: {
    url: 'https://user:pw@crm.example.com/context',
    headers: { Authorization: 'Bearer secret-token', 'X-Tenant': 'acme' },
    timeout_seconds: 3,
    fallback_context: { name: 'caller' },
  },
  is_active: true,
  created_at: CREATED,
  updated_at: CREATED,
};

function answer(status: number, body: unknown): OutboundHttpResult {
  const text = JSON.stringify(body);
  return {
    kind: 'response',
    status,
    ok: status >= 200 && status < 300,
    contentType: 'application/json',
    text,
    json: { ok: true, value: body },
    latencyMs: 42,
  };
}

async function setup(resolved: ResolvedMapping | null, outcome: OutboundHttpResult) {
  const lookups = { resolve: jest.fn().mockResolvedValue(resolved) };
  const http = { postJson: jest.fn().mockResolvedValue(outcome) };
  const activityLog = { record: jest.fn().mockResolvedValue('17') };
  const webhookSecrets = { signingSecretsOfUser: jest.fn().mockResolvedValue(['whsec_a']) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      InboundContextLookupService,
      { provide: LookupRepository, useValue: lookups },
      { provide: AssistantRepository, useValue: {} },
      { provide: InboundContextStrategyService, useValue: {} },
      { provide: OutboundHttpClient, useValue: http },
      { provide: ActivityLogService, useValue: activityLog },
      { provide: WebhookSecretsService, useValue: webhookSecrets },
      { provide: SecretReferences, useValue: noSecrets() },
      {
        provide: LookupCache,
        useValue: { get: (_key: string, load: () => Promise<unknown>) => load() },
      },
    ],
  }).compile();
  return { service: moduleRef.get(InboundContextLookupService), lookups, http, activityLog };
}

const resolved = (over: Partial<ResolvedMapping> = {}): ResolvedMapping => ({
  mapping,
  assistant,
  version: null,
  strategy,
  owner: null,
  ...over,
});

describe(InboundContextLookupService.name, () => {
  const job = { room_name: 'room-1', inbound_id: 'm-1', caller_number: '+15550001111' };

  it('calls the strategy webhook, renders the prompt with its context and logs the outcome redacted', async () => {
    const { service, http, activityLog } = await setup(
      resolved(),
      answer(200, { context: { name: 'Ada', tier: 'gold' } }),
    );

    const result = await service.run(job);

    expect(result).toMatchObject({
      status: 'success',
      assistant_id: 'a-1',
      context: { name: 'Ada', tier: 'gold' },
      prompt: 'Hello Ada',
      fallback_used: false,
      error: null,
      log_id: '17',
    });
    expect(http.postJson).toHaveBeenCalledWith(
      expect.objectContaining({
        url: 'https://user:pw@crm.example.com/context',
        body: expect.objectContaining({ room_name: 'room-1', inbound_id: 'm-1' }),
      }),
    );
    const [entry] = activityLog.record.mock.calls[0];
    expect(entry).toMatchObject({
      user_id: 'u-1',
      log_type: 'inbound_context_lookup',
      status: 'success',
      message: 'Inbound context lookup succeeded: HTTP 200, 2 context key(s)',
      response_data: { status_code: 200, context_keys: ['name', 'tier'], fallback_used: false },
    });
    expect(entry.request_data.headers).toEqual({ Authorization: '****', 'X-Tenant': '****' });
    expect(JSON.stringify(entry)).not.toContain('secret-token');
    expect(JSON.stringify(entry)).not.toContain(':pw@');
  });

  it('renders with the fallback context and logs the failure kind when the webhook fails', async () => {
    const { service, activityLog } = await setup(resolved(), answer(503, { error: 'down' }));

    const result = await service.run(job);

    expect(result).toMatchObject({
      status: 'error',
      prompt: 'Hello caller',
      fallback_used: true,
      error: 'http_error: webhook answered HTTP 503',
    });
    expect(activityLog.record.mock.calls[0][0]).toMatchObject({
      status: 'error',
      message:
        'Inbound context lookup failed (http_error): webhook answered HTTP 503; rendered with the fallback context',
      response_data: { error: 'http_error', status_code: 503, fallback_used: true },
    });
  });

  it('does not call an inactive strategy, and says so in the log', async () => {
    const { service, http, activityLog } = await setup(
      resolved({ strategy: { ...strategy, is_active: false } }),
      answer(200, { context: {} }),
    );

    const result = await service.run(job);

    expect(http.postJson).not.toHaveBeenCalled();
    expect(result.error).toBe(
      'strategy_inactive: the strategy is inactive; the webhook was not called',
    );
    expect(activityLog.record).toHaveBeenCalledTimes(1);
  });

  it('answers mapping_not_found without a log entry when nothing matches', async () => {
    const { service, http, activityLog } = await setup(null, answer(200, {}));

    const result = await service.run({ room_name: 'room-1', inbound_number: '+1 555' });

    expect(result).toMatchObject({
      status: 'error',
      error: 'mapping_not_found: no inbound mapping for inbound_number +1 555',
      log_id: null,
    });
    expect(http.postJson).not.toHaveBeenCalled();
    expect(activityLog.record).not.toHaveBeenCalled();
  });

  it('renders without a webhook call or log entry when the mapping has no strategy', async () => {
    const { service, http, activityLog } = await setup(
      resolved({ mapping: { ...mapping, inbound_context_strategy_id: null }, strategy: null }),
      answer(200, {}),
    );

    const result = await service.run(job);

    expect(result).toMatchObject({ status: 'skipped', prompt: 'Hello ', log_id: null });
    expect(http.postJson).not.toHaveBeenCalled();
    expect(activityLog.record).not.toHaveBeenCalled();
  });
});
