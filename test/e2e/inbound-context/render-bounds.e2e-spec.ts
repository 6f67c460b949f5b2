import { randomUUID } from 'node:crypto';
import { InboundContextLookupClient } from '@voice-assistant-config/client';
import type { InboundContextLookupResult } from '../../../src/contracts/inbound-context-lookup.contract';
import { assistantApi } from '../../api/assistant-api';
import { logsApi } from '../../api/logs-api';
import { routeNumber } from '../../api/inbound-api';
import { assistantBody } from '../../fixtures/assistant';
import { strategyBody } from '../../fixtures/strategy';
import { appSuite } from '../../utils/create-test-app';

/** MAX_RENDERED_PROMPT_BYTES and MAX_CONTEXT_RESPONSE_BYTES at their defaults. */
const MAX_PROMPT = 262_144;
const MAX_RESPONSE = 65_536;

/** A value that fits in a context response; a handful of placeholders of it do not fit in a prompt. */
const BIG = 'v'.repeat(60_000);
/** About the most placeholders a prompt (100,000 characters) can hold: 4,500 of one value, 270 MB unbounded. */
const WORST_PROMPT = 'Hi {{context.blob}}. '.repeat(4_500);
const FALLBACK = { blob: 'friend' };

describe('Render bounds (e2e)', () => {
  const suite = appSuite({ users: ['alice'], server: true });
  let client: InboundContextLookupClient;

  const newAssistant = async (prompt: string, start = 'Greet {{context.blob}}') =>
    (
      await assistantApi(suite.ctx, suite.alice).create(
        assistantBody({ assistant_prompt: prompt, assistant_start_instruction: start }),
      )
    ).assistant_id;

  /** An assistant with `prompt` on a number whose strategy calls `path` (with the fallback context). */
  async function route(path: string, prompt = WORST_PROMPT) {
    const assistantId = await newAssistant(prompt);
    const { strategy, inboundId } = await routeNumber(
      suite.ctx,
      suite.alice,
      assistantId,
      strategyBody(suite.server.url(path), { fallback_context: FALLBACK }, { strategy_name: path }),
    );
    return { assistantId, strategyId: strategy.strategy_id, inboundId };
  }

  const lookup = (inboundId: string, room: string) =>
    client.lookup({ room_name: room, inbound_id: inboundId }, { waitMs: 15_000 });

  beforeAll(() => {
    client = suite.ctx.app.get(InboundContextLookupClient);
  });

  describe('POST /assistant/render/:assistant_id', () => {
    it('answers 400 naming context and the limit, at once, for the worst-case template', async () => {
      const id = await newAssistant(WORST_PROMPT);
      const res = await suite.ctx
        .http()
        .post(`/assistant/render/${id}`)
        .set(suite.alice.auth)
        .send({ context: { blob: BIG } })
        .expect(400);
      expect(res.body).toEqual({
        success: false,
        message: 'Validation failed',
        data: {
          code: 'validation_failed',
          errors: [
            {
              field: 'context',
              message: `makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (${MAX_PROMPT} bytes)`,
            },
          ],
        },
      });
    });

    it('names the start instruction too, and renders what fits in full', async () => {
      const id = await newAssistant('{{context.blob}}'.repeat(4), '{{context.blob}}'.repeat(5));
      const over = await suite.ctx
        .http()
        .post(`/assistant/render/${id}`)
        .set(suite.alice.auth)
        .send({ context: { blob: BIG } })
        .expect(400);
      expect(over.body.data.errors[0].message).toBe(
        `makes assistant_start_instruction longer than MAX_RENDERED_PROMPT_BYTES (${MAX_PROMPT} bytes)`,
      );
      const fits = await suite.ctx
        .http()
        .post(`/assistant/render/${id}`)
        .set(suite.alice.auth)
        .send({ context: { blob: 'x'.repeat(50_000) } })
        .expect(200);
      expect(fits.body.data.prompt).toHaveLength(200_000);
      expect(fits.body.data.start_instruction).toHaveLength(250_000);
    });
  });

  describe('lookups', () => {
    it('fail when the context would render past the limit: fallback rendered, result and entry agree', async () => {
      const path = `/huge-${randomUUID()}`;
      suite.server.respond(path, { body: { context: { blob: BIG } } });
      const { assistantId, strategyId, inboundId } = await route(path);
      const room = `room-${randomUUID()}`;

      const result = await lookup(inboundId, room);

      const why = `the context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (${MAX_PROMPT} bytes); the context was not used`;
      expect(result).toMatchObject<Partial<InboundContextLookupResult>>({
        status: 'error',
        assistant_id: assistantId,
        strategy_id: strategyId,
        context: FALLBACK,
        fallback_used: true,
        prompt: 'Hi friend. '.repeat(4_500),
        start_instruction: 'Greet friend',
        error: `prompt_too_large: ${why}`,
      });
      const log = await logsApi(suite.ctx, suite.alice).lookupEntryOf(room);
      expect(log.log_id).toBe(result.log_id);
      expect(log.status).toBe(result.status);
      expect(log.message).toBe(
        `Inbound context lookup failed (prompt_too_large): ${why}; rendered with the fallback context`,
      );
      expect(log.response_data).toMatchObject({
        error: 'prompt_too_large',
        status_code: 200,
        fallback_used: true,
      });
    });

    it('call a context response over MAX_CONTEXT_RESPONSE_BYTES invalid, not a success', async () => {
      const path = `/over-${randomUUID()}`;
      suite.server.respond(path, { body: { context: { blob: 'w'.repeat(MAX_RESPONSE) } } });
      const { inboundId } = await route(path, 'Hi {{context.blob}}');
      const room = `room-${randomUUID()}`;

      const result = await lookup(inboundId, room);

      expect(result).toMatchObject<Partial<InboundContextLookupResult>>({
        status: 'error',
        context: FALLBACK,
        fallback_used: true,
        prompt: 'Hi friend',
        error: `invalid_response: response body larger than MAX_CONTEXT_RESPONSE_BYTES (${MAX_RESPONSE} bytes); not read further`,
      });
      const log = await logsApi(suite.ctx, suite.alice).lookupEntryOf(room);
      expect(log.status).toBe('error');
      expect(log.response_data).toMatchObject({ error: 'invalid_response', fallback_used: true });
    });

    it('take a context response just under the limit', async () => {
      const path = `/under-${randomUUID()}`;
      const blob = 'u'.repeat(MAX_RESPONSE - JSON.stringify({ context: { blob: '' } }).length);
      suite.server.respond(path, { body: { context: { blob } } });
      const { inboundId } = await route(path, 'Hi {{context.blob}}');
      const result = await lookup(inboundId, `room-${randomUUID()}`);
      expect(result).toMatchObject({ status: 'success', prompt: `Hi ${blob}`, error: null });
    });
  });

  describe('the strategy dry run', () => {
    const dryRun = (strategyId: string) =>
      suite.ctx
        .http()
        .post(`/inbound_context_strategy/test/${strategyId}`)
        .set(suite.alice.auth)
        .send({})
        .expect(200);

    it('answers a huge context with the same error and the fallback preview, never a 500', async () => {
      const path = `/dry-huge-${randomUUID()}`;
      suite.server.respond(path, { body: { context: { blob: BIG } } });
      const { strategyId } = await route(path);

      const res = await dryRun(strategyId);

      expect(res.body.data).toMatchObject({
        status: 'error',
        error: `prompt_too_large: the context makes assistant_prompt longer than MAX_RENDERED_PROMPT_BYTES (${MAX_PROMPT} bytes); the context was not used`,
        status_code: 200,
        context: null,
        context_keys: [],
        fallback_used: true,
        prompt_preview: 'Hi friend. '.repeat(4_500),
        start_instruction_preview: 'Greet friend',
      });
    });

    it('calls a response over MAX_CONTEXT_RESPONSE_BYTES invalid', async () => {
      const path = `/dry-over-${randomUUID()}`;
      suite.server.respond(path, { body: { context: { blob: 'w'.repeat(900_000) } } });
      const { strategyId } = await route(path);

      const res = await dryRun(strategyId);

      expect(res.body.data).toMatchObject({
        status: 'error',
        error: `invalid_response: response body larger than MAX_CONTEXT_RESPONSE_BYTES (${MAX_RESPONSE} bytes); not read further`,
        fallback_used: true,
        prompt_preview: 'Hi friend. '.repeat(4_500),
      });
    });
  });
});
