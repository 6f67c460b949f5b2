import { ConfigService } from '@nestjs/config';
import { Test } from '@nestjs/testing';
import type { AssistantEntity } from '../assistant/assistant.entity';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { OutboundHttpClient } from '../common/http/outbound-http.client';
import { loadAppConfig } from '../config/app-config';
import type { OutboundHttpResult } from '../common/http/outbound-http.types';
import { ActivityLogService } from '../activity-log/activity-log.service';
import { applyAssistantDefaults } from '../assistant/utils/apply-assistant-defaults.util';
import { noSecrets } from '../secret/testing/no-secrets';
import { LocalRoomVersions, RoomVersions } from '../call-version/room-versions';
import { SecretReferences } from '../secret/secret-references';
import { CallSlots, MemoryCallSlots } from '../inbound-policy/call-slots';
import type { InboundContextStrategyEntity } from '../inbound-context/inbound-context-strategy.entity';
import type { InboundMappingEntity } from '../inbound-context/inbound-mapping.entity';
import { LookupRepository, type ResolvedMapping } from '../inbound-context/lookup.repository';
import { InboundContextLookupService } from './inbound-context-lookup.service';
import { RoutingTable } from './routing/routing-table';
import { NumberOverflow } from './number-overflow';
import { StrategyWebhookClient } from './strategy-webhook.client';

const CREATED = new Date('2030-01-01T00:00:00Z');

const mapping: InboundMappingEntity = {
  inbound_id: 'm-1',
  user_id: 'u-1',
  assistant_id: 'a-1',
  assistant_version: null,
  assistant_variants: null,
  policy: null,
  environment: null,
  guardrail: null,
  guardrail_state: null,
  inbound_context_strategy_id: 's-1',
  service: 'exotel',
  inbound_config: { phone_number: '+91 80 1234 5678' },
  phone_number_normalized: '918012345678',
  is_active: true,
  active_phone_number: '918012345678',
  created_at: CREATED,
  updated_at: CREATED,
};

const assistant: AssistantEntity = {
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

async function setup(
  resolved: ResolvedMapping | null,
  outcome: OutboundHttpResult,
  env: NodeJS.ProcessEnv = {},
) {
  const lookups = { resolve: jest.fn().mockResolvedValue(resolved) };
  const http = { postJson: jest.fn().mockResolvedValue(outcome) };
  const activityLog = { record: jest.fn().mockResolvedValue('17') };
  const webhookSecrets = { signingSecretsOfUser: jest.fn().mockResolvedValue(['whsec_a']) };
  const moduleRef = await Test.createTestingModule({
    providers: [
      InboundContextLookupService,
      { provide: LookupRepository, useValue: lookups },
      StrategyWebhookClient,
      { provide: OutboundHttpClient, useValue: http },
      { provide: ActivityLogService, useValue: activityLog },
      { provide: WebhookSecretsService, useValue: webhookSecrets },
      { provide: ConfigService, useValue: new ConfigService(loadAppConfig(env)) },
      { provide: SecretReferences, useValue: noSecrets() },
      { provide: RoomVersions, useValue: new LocalRoomVersions() },
      // The routing table cannot answer: these cases read the (mocked) database.
      { provide: RoutingTable, useValue: { find: () => Promise.resolve(undefined) } },
      { provide: CallSlots, useValue: new MemoryCallSlots() },
      { provide: NumberOverflow, useValue: { report: jest.fn() } },
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

  describe('bounds', () => {
    const small = { MAX_RENDERED_PROMPT_BYTES: '2048' };
    const manyPlaceholders = resolved({
      assistant: { ...assistant, assistant_prompt: 'Hello {{context.name}} '.repeat(100) },
    });

    it('asks for at most MAX_CONTEXT_RESPONSE_BYTES of the response', async () => {
      const { service, http } = await setup(resolved(), answer(200, { context: {} }), {
        MAX_CONTEXT_RESPONSE_BYTES: '4096',
      });
      await service.run(job);
      expect(http.postJson).toHaveBeenCalledWith(
        expect.objectContaining({ maxResponseBytes: 4096 }),
      );
    });

    it('calls a response past MAX_CONTEXT_RESPONSE_BYTES invalid, and uses the fallback', async () => {
      const { service, activityLog } = await setup(resolved(), {
        kind: 'too_large',
        message: 'response body larger than 65536 bytes',
        latencyMs: 9,
      });
      const result = await service.run(job);
      expect(result).toMatchObject({
        status: 'error',
        error:
          'invalid_response: response body larger than MAX_CONTEXT_RESPONSE_BYTES (65536 bytes); not read further',
        context: { name: 'caller' },
        fallback_used: true,
        prompt: 'Hello caller',
      });
      expect(activityLog.record.mock.calls[0][0]).toMatchObject({
        status: 'error',
        response_data: { error: 'invalid_response', fallback_used: true },
      });
    });

    it('fails a lookup whose context renders past the limit: fallback rendered, entry and result agree', async () => {
      const { service, activityLog } = await setup(
        manyPlaceholders,
        answer(200, { context: { name: 'n'.repeat(100) } }),
        small,
      );

      const result = await service.run(job);

      const why =
        'the context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (2048 bytes); the context was not used';
      expect(result).toMatchObject({
        status: 'error',
        context: { name: 'caller' },
        fallback_used: true,
        prompt: 'Hello caller '.repeat(100),
        error: `prompt_too_large: ${why}`,
      });
      const [entry] = activityLog.record.mock.calls[0];
      expect(entry).toMatchObject({
        status: 'error',
        message: `Inbound context lookup failed (prompt_too_large): ${why}; rendered with the fallback context`,
        response_data: { error: 'prompt_too_large', status_code: 200, fallback_used: true },
      });
    });

    it('cuts a fallback that does not fit either at the limit, and says so', async () => {
      const { service } = await setup(
        resolved({
          ...manyPlaceholders,
          strategy: {
            ...strategy,
            strategy_config: {
              ...strategy.strategy_config,
              fallback_context: { name: 'f'.repeat(50) },
            },
          },
        }),
        answer(200, { context: { name: 'n'.repeat(100) } }),
        small,
      );
      const result = await service.run(job);
      expect(result.status).toBe('error');
      expect(Buffer.byteLength(result.prompt ?? '')).toBe(2048);
      expect(result.error).toMatch(
        /; the fallback context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES \(2048 bytes\), the text is cut there$/,
      );
    });

    it('without a fallback renders no context and still never throws', async () => {
      const { service, activityLog } = await setup(
        resolved({
          ...manyPlaceholders,
          strategy: {
            ...strategy,
            strategy_config: {
              url: 'https://crm.example.com/context',
              headers: {},
              timeout_seconds: 3,
            },
          },
        }),
        answer(200, { context: { name: 'y'.repeat(5_000_000) } }),
      );
      const result = await service.run(job);
      expect(result).toMatchObject({
        status: 'error',
        context: null,
        fallback_used: false,
        prompt: 'Hello  '.repeat(100),
      });
      expect(activityLog.record.mock.calls[0][0]).toMatchObject({ status: 'error' });
    });

    it('fails a lookup without a strategy whose call values alone pass the limit', async () => {
      const { service } = await setup(
        resolved({
          mapping: { ...mapping, inbound_context_strategy_id: null },
          strategy: null,
          assistant: { ...assistant, assistant_prompt: '{{call.room_name}}'.repeat(20) },
        }),
        answer(200, {}),
        small,
      );
      const result = await service.run({ ...job, room_name: 'r'.repeat(200) });
      expect(result.status).toBe('error');
      expect(result.error).toMatch(
        /^prompt_too_large: the call values make assistant_prompt longer/,
      );
      expect(Buffer.byteLength(result.prompt ?? '')).toBe(2048);
    });
  });
});
