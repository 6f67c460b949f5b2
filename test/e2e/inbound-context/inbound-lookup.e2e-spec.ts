import { randomUUID } from 'node:crypto';
import { ConfigService } from '@nestjs/config';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import { WebhookSecretsService } from '../../../src/auth/webhook-secrets.service';
import { signStandardWebhook } from '../../../src/common/http/webhook-signature';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { InboundContextStrategyEntity } from '../../../src/inbound-context/inbound-context-strategy.entity';
import { JobFailedError, jobQueueToken, type JobQueue } from '../../../src/queue/job-queue';
import { QUEUES } from '../../../src/contracts/queues';
import { digitsOf, uniquePhone } from '../../fixtures/inbound';
import { inboundContextSuite } from '../../fixtures/inbound-context';
import type { CustomerServer } from '../../utils/customer-server';
import { redisConfigured } from '../../utils/test-redis';
import { rebuildRouting } from '../../utils/rebuild-routing';

describe('Inbound context lookup jobs (e2e)', () => {
  const { suite, api, newAssistant, setup, logsFor } = inboundContextSuite();
  let client: InboundContextLookupClient;

  const lookup = (data: {
    room_name?: string;
    inbound_id?: string;
    inbound_number?: string;
    caller_number?: string;
  }) =>
    client.lookup(
      { room_name: data.room_name ?? `room-${randomUUID()}`, ...data },
      { waitMs: 15_000 },
    );

  beforeAll(() => {
    client = suite.ctx.app.get(InboundContextLookupClient);
  });

  describe('lookup jobs', () => {
    it('succeeds: exact payload and headers sent, prompt rendered, log entry written', async () => {
      const context = {
        name: 'Asha',
        tier: 'gold',
        account: { plan: { name: 'Pro' } },
        balance: 12,
      };
      suite.server.respond('/ok', { body: { context, other: 'ignored' } });
      const { assistant, strategy, phone, inboundId } = await setup(suite.alice, '/ok', {
        headers: { Authorization: 'Bearer live-token', 'X-Tenant': 'acme' },
      });
      const room = `room-${randomUUID()}`;
      const result = await lookup({
        room_name: room,
        inbound_number: phone,
        caller_number: '+919900011122',
      });

      expect(result).toEqual<InboundContextLookupResult>({
        status: 'success',
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        assistant_version: null,
        variant: null,
        policy: null,
        inbound_id: inboundId,
        strategy_id: strategy.strategy_id,
        context,
        fallback_used: false,
        prompt: 'Hello Asha, your tier is gold. Plan: {"name":"Pro"}.',
        start_instruction: 'Greet Asha',
        latency_ms: expect.any(Number),
        error: null,
        error_class: null,
        log_id: expect.stringMatching(/^\d+$/),
      });

      const [received] = suite.server.requestsTo('/ok');
      expect(received.method).toBe('POST');
      expect(received.json).toEqual({
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        room_name: room,
        strategy_id: strategy.strategy_id,
        strategy_name: 'strategy /ok',
        strategy_type: 'webhook',
        call_type: 'inbound',
        service: 'exotel',
        inbound_id: inboundId,
        caller_number: '+919900011122',
        inbound_number: digitsOf(phone),
      });
      expect(received.headers['content-type']).toBe('application/json');
      expect(received.headers['authorization']).toBe('Bearer live-token');
      expect(received.headers['x-tenant']).toBe('acme');
      const secrets = await suite.ctx.app
        .get(WebhookSecretsService)
        .signingSecretsFor(suite.alice.userId);
      const ts = Number(received.headers['webhook-timestamp']);
      expect(received.headers['webhook-signature']).toBe(
        secrets
          .map((s) =>
            signStandardWebhook(s, String(received.headers['webhook-id']), ts, received.rawBody),
          )
          .join(' '),
      );

      const logs = await logsFor(suite.alice, { room_name: room });
      expect(logs).toHaveLength(1);
      expect(logs[0]).toEqual({
        log_id: result.log_id,
        log_type: 'inbound_context_lookup',
        status: 'success',
        assistant_id: assistant.assistant_id,
        room_name: room,
        timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        message: 'Inbound context lookup succeeded: HTTP 200, 4 context key(s)',
        request_data: {
          assistant_version: null,
          variant: null,
          strategy_id: strategy.strategy_id,
          strategy_type: 'webhook',
          url: suite.server.url('/ok'),
          headers: { Authorization: '****', 'X-Tenant': '****' },
          timeout_seconds: 2,
          payload: received.json,
          webhook_id: received.headers['webhook-id'],
        },
        response_data: {
          status_code: 200,
          context_keys: ['account', 'balance', 'name', 'tier'],
          context_size: 4,
          fallback_used: false,
        },
        latency_ms: result.latency_ms,
        error_class: null,
        trace_id: expect.stringMatching(/^[0-9a-f]{32}$/),
        replay_of: null,
      });
      expect(Number.isInteger(logs[0].latency_ms)).toBe(true);
      expect(JSON.stringify(logs[0])).not.toContain('live-token');
      expect(JSON.stringify(logs[0])).not.toContain('Asha');
    });

    it('resolves by inbound_id as well as by any formatting of the number', async () => {
      suite.server.respond('/by-id', { body: { context: { name: 'Ravi' } } });
      const { inboundId, phone } = await setup(suite.alice, '/by-id');
      const byId = await lookup({ inbound_id: inboundId });
      expect(byId).toMatchObject({
        status: 'success',
        inbound_id: inboundId,
        context: { name: 'Ravi' },
      });
      expect(suite.server.requestsTo('/by-id')[0].json).not.toHaveProperty('caller_number');
      const byNumber = await lookup({ inbound_number: `00-${digitsOf(phone)}`.replace('00-', '') });
      expect(byNumber.inbound_id).toBe(inboundId);
    });

    it('keeps sending the real token after a masked-header round trip', async () => {
      suite.server.respond('/roundtrip', { body: { context: { ok: 1 } } });
      const { strategy, inboundId } = await setup(suite.alice, '/roundtrip', {
        headers: { Authorization: 'Bearer real-token' },
      });
      const read = await suite.ctx
        .http()
        .get(`/inbound_context_strategy/details/${strategy.strategy_id}`)
        .set(suite.alice.auth)
        .expect(200);
      expect(read.body.data.strategy_config.headers).toEqual({ Authorization: '****' });
      // A client that edits one field and sends the whole record back, masked values included.
      await api
        .updateStrategy(suite.alice, strategy.strategy_id, {
          strategy_config: { ...read.body.data.strategy_config, timeout_seconds: 3 },
        })
        .expect(200);
      const result = await lookup({ inbound_id: inboundId });
      expect(result.status).toBe('success');
      expect(suite.server.requestsTo('/roundtrip')[0].headers['authorization']).toBe(
        'Bearer real-token',
      );
    });

    it('is skipped without a strategy: no webhook, no log, prompt rendered without context', async () => {
      const assistant = await newAssistant(suite.alice);
      const phone = uniquePhone();
      const res = await api
        .assign(suite.alice, {
          assistant_id: assistant.assistant_id,
          service: 'exotel',
          inbound_config: { phone_number: phone },
        })
        .expect(200);
      const room = `room-${randomUUID()}`;
      const before = suite.server.requests.length;
      const result = await lookup({ room_name: room, inbound_number: phone });
      expect(result).toEqual({
        status: 'skipped',
        assistant_id: assistant.assistant_id,
        assistant_name: 'Front desk',
        assistant_version: null,
        variant: null,
        policy: null,
        inbound_id: res.body.data.inbound_id,
        strategy_id: null,
        context: null,
        fallback_used: false,
        prompt: 'Hello , your tier is . Plan: .',
        start_instruction: 'Greet ',
        latency_ms: 0,
        error: null,
        error_class: null,
        log_id: null,
      });
      expect(suite.server.requests.length).toBe(before);
      expect(await logsFor(suite.alice, { room_name: room })).toHaveLength(0);
    });

    it('answers an unknown number with an error and no log', async () => {
      const result = await lookup({ inbound_number: '+1 555 000 0000 999' });
      expect(result).toMatchObject({
        status: 'error',
        inbound_id: null,
        log_id: null,
        prompt: null,
      });
      expect(result.error).toMatch(/^mapping_not_found: /);
    });

    type Case = [string, Parameters<CustomerServer['respond']>[1], RegExp, Record<string, unknown>];
    const failures: Case[] = [
      [
        '500',
        { status: 500, body: { error: 'down' } },
        /^http_error: webhook answered HTTP 500$/,
        { error: 'http_error', status_code: 500 },
      ],
      [
        'invalid JSON',
        { body: '{"context": {', headers: { 'content-type': 'application/json' } },
        /^invalid_json: /,
        { error: 'invalid_json', status_code: 200 },
      ],
      [
        'missing context',
        { body: { data: { name: 'x' } } },
        /^invalid_response: response has no "context" field$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'non-object context',
        { body: { context: ['a', 'b'] } },
        /^invalid_response: "context" is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'string context',
        { body: { context: 'hello' } },
        /^invalid_response: "context" is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'array body',
        { body: [{ context: {} }] },
        /^invalid_response: response is not a JSON object$/,
        { error: 'invalid_response', status_code: 200 },
      ],
      [
        'redirect',
        { status: 302, headers: { location: 'http://127.0.0.1:1/' }, body: '' },
        /^http_error: webhook answered HTTP 302$/,
        { error: 'http_error', status_code: 302 },
      ],
    ];

    it.each(failures)(
      'fails softly on %s: error result, prompt without context, error log',
      async (name, response, error, responseData) => {
        const path = `/fail-${name.replace(/\W+/g, '-')}`;
        suite.server.respond(path, response);
        const { assistant, strategy } = await setup(suite.alice, path);
        const room = `room-${randomUUID()}`;
        const phoneMapping = await suite.ctx
          .http()
          .get('/inbound/list')
          .set(suite.alice.auth)
          .expect(200);
        const mapping = (
          phoneMapping.body.data.items as {
            inbound_id: string;
            inbound_context_strategy_id: string;
          }[]
        ).find((m) => m.inbound_context_strategy_id === strategy.strategy_id)!;
        const result = await lookup({
          room_name: room,
          inbound_id: mapping.inbound_id,
          caller_number: '+15550100',
        });
        expect(result).toMatchObject({
          status: 'error',
          assistant_id: assistant.assistant_id,
          strategy_id: strategy.strategy_id,
          context: null,
          prompt: 'Hello , your tier is . Plan: .',
          start_instruction: 'Greet ',
        });
        expect(result.error).toMatch(error);
        expect(suite.server.requestsTo(path)).toHaveLength(1);
        const logs = await logsFor(suite.alice, { room_name: room });
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({
          status: 'error',
          log_id: result.log_id,
          assistant_id: assistant.assistant_id,
          response_data: responseData,
        });
        expect(logs[0].message).toMatch(/^Inbound context lookup failed \(/);
        expect(logs[0].request_data).toMatchObject({
          strategy_id: strategy.strategy_id,
          strategy_type: 'webhook',
          url: suite.server.url(path),
        });
        expect((logs[0].request_data.payload as Record<string, unknown>).caller_number).toBe(
          '+15550100',
        );
      },
    );

    it('enforces the strategy timeout on a slow endpoint and on a slow-loris body', async () => {
      // Both answer minutes later: a lookup that waited for them would not return within the test.
      suite.server.respond('/slow', { delayMs: 120_000, body: { context: {} } });
      suite.server.respond('/loris', {
        trickle: { chunk: ' ', intervalMs: 100, count: 1_200 },
        body: '{"context":{}}',
        headers: { 'content-type': 'application/json' },
      });
      for (const path of ['/slow', '/loris']) {
        const { inboundId } = await setup(suite.alice, path, { timeout_seconds: 0.5 });
        const room = `room-${randomUUID()}`;
        const result = await lookup({ room_name: room, inbound_id: inboundId });
        expect(result.status).toBe('error');
        expect(result.error).toBe('timeout: no complete response within 500 ms');
        expect(result.latency_ms).toBeGreaterThanOrEqual(490);
        const [log] = await logsFor(suite.alice, { room_name: room });
        expect(log.response_data).toEqual({
          error: 'timeout',
          message: 'no complete response within 500 ms',
          fallback_used: false,
        });
      }
    });

    it('reports a lookup picked up after the producer gave up as expired, without calling the webhook', async () => {
      const { inboundId } = await setup(suite.alice, '/expired');
      const room = `room-${randomUUID()}`;
      const queue = suite.ctx.app.get<JobQueue<unknown, InboundContextLookupResult>>(
        jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
      );
      const result = await queue.request(
        { room_name: room, inbound_id: inboundId, deadline_at: Date.now() - 1000 },
        { waitMs: 10_000 },
      );
      expect(result.status).toBe('error');
      expect(result.error).toMatch(
        /^expired: the producer's deadline passed \d+ ms before the lookup started/,
      );
      expect(result.prompt).toBe('Hello , your tier is . Plan: .');
      expect(suite.server.requestsTo('/expired')).toHaveLength(0);
      const [log] = await logsFor(suite.alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        latency_ms: 0,
        response_data: { error: 'expired' },
      });
    });

    it('cuts the webhook call at the producer deadline when it comes before the strategy timeout', async () => {
      suite.server.respond('/late', { delayMs: 4000, body: { context: { name: 'Ada' } } });
      const { inboundId } = await setup(suite.alice, '/late', { timeout_seconds: 5 });
      const result = await client
        .lookup({ room_name: `room-${randomUUID()}`, inbound_id: inboundId }, { waitMs: 2500 })
        .catch((e: unknown) => e);
      // The service answers (timeout) before the producer's own wait runs out (else the producer
      // gets its own wait error, not a result).
      expect(result).toMatchObject({ status: 'error', error: expect.stringMatching(/^timeout: /) });
    });

    it('does not call an inactive strategy, and logs it', async () => {
      const { inboundId, strategy } = await setup(
        suite.alice,
        '/inactive',
        {},
        { is_active: false },
      );
      const room = `room-${randomUUID()}`;
      const result = await lookup({ room_name: room, inbound_id: inboundId });
      expect(result).toMatchObject({
        status: 'error',
        strategy_id: strategy.strategy_id,
        latency_ms: 0,
        prompt: 'Hello , your tier is . Plan: .',
      });
      expect(result.error).toMatch(/^strategy_inactive: /);
      expect(suite.server.requestsTo('/inactive')).toHaveLength(0);
      const [log] = await logsFor(suite.alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        latency_ms: 0,
        response_data: { error: 'strategy_inactive' },
      });
    });

    it('fails softly on a strategy without URL, and logs it', async () => {
      const { inboundId, strategy } = await setup(suite.alice, '/no-url');
      await suite.ctx.dataSource
        .getRepository(InboundContextStrategyEntity)
        .update(
          { strategy_id: strategy.strategy_id },
          { strategy_config: { headers: {}, timeout_seconds: 2 } },
        );
      await rebuildRouting(suite.ctx);
      const room = `room-${randomUUID()}`;
      const result = await lookup({ room_name: room, inbound_id: inboundId });
      expect(result.status).toBe('error');
      expect(result.error).toMatch(/^missing_url: /);
      const [log] = await logsFor(suite.alice, { room_name: room });
      expect(log).toMatchObject({
        status: 'error',
        response_data: { error: 'missing_url' },
        request_data: { url: null },
      });
    });

    it('fails a malformed job at once with a clear reason', async () => {
      const queue = suite.ctx.app.get<JobQueue<unknown, unknown>>(
        jobQueueToken(QUEUES.INBOUND_CONTEXT_LOOKUP),
      );
      const error = await queue
        .request({ room_name: '', inbound_number: 12 }, { waitMs: 10_000, attempts: 3 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(JobFailedError);
      expect((error as JobFailedError).reason).toContain('room_name must be a non-empty string');
      expect((error as JobFailedError).reason).toContain(
        'inbound_number must be a string with at least 5 digits',
      );
      await expect(client.lookup({ room_name: 'r' }, { waitMs: 1000 })).rejects.toThrow(
        /one of inbound_id or inbound_number is required/,
      );
    });

    (redisConfigured ? it : it.skip)(
      'works from a standalone producer on Redis, as the call worker uses it',
      async () => {
        suite.server.respond('/standalone', { body: { context: { name: 'Zoya' } } });
        const { inboundId, phone } = await setup(suite.alice, '/standalone');
        const prefix = suite.ctx.app.get(ConfigService).get<string>('queue.prefix');
        const standalone = process.env.REDIS_CLUSTER_NODES
          ? InboundContextLookupClient.fromRedisCluster(process.env.REDIS_CLUSTER_NODES, { prefix })
          : InboundContextLookupClient.fromRedisUrl(process.env.REDIS_URL!, { prefix });
        try {
          const results = await Promise.all(
            Array.from({ length: 20 }, (_, i) =>
              standalone.lookup(
                { room_name: `standalone-${i}-${randomUUID()}`, inbound_number: phone },
                { waitMs: 15_000 },
              ),
            ),
          );
          expect(results.map((r) => [r.status, r.inbound_id, r.prompt])).toEqual(
            results.map(() => ['success', inboundId, 'Hello Zoya, your tier is . Plan: .']),
          );
        } finally {
          await standalone.close();
        }
      },
    );

    it('answers and logs 50 concurrent lookups', async () => {
      suite.server.respond('/burst', (req) => ({
        delayMs: 50,
        body: { context: { room: (req.json as { room_name: string }).room_name } },
      }));
      const { inboundId, assistant } = await setup(suite.alice, '/burst');
      const rooms = Array.from({ length: 50 }, (_, i) => `burst-${i}-${randomUUID()}`);
      const results = await Promise.all(
        rooms.map((room) => lookup({ room_name: room, inbound_id: inboundId })),
      );
      expect(results.map((r) => r.status)).toEqual(rooms.map(() => 'success'));
      expect(results.map((r) => r.context?.room)).toEqual(rooms);
      expect(new Set(results.map((r) => r.log_id)).size).toBe(50);
      const logs = await logsFor(suite.alice, { assistant_id: assistant.assistant_id });
      expect(logs).toHaveLength(50);
      expect(logs.map((l) => l.room_name).sort()).toEqual([...rooms].sort());
    });
  });
});
