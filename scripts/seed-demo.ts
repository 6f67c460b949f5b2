/**
 * Demo data for a first run, created through the API of a running service as a user would:
 * a user and API key, an assistant whose prompt uses the caller's context, an inbound context
 * strategy calling the demo context endpoint (with a fallback context for when it is down), and
 * an inbound mapping for the demo number. Running it again reuses what exists.
 *
 *   ADMIN_API_KEY=… npm run seed:demo [-- --url http://localhost:3000 --context-url http://127.0.0.1:4010/context]
 */
import { parseArgs } from 'node:util';

export const DEMO_NUMBER = '+91 80 1234 5678';
const DEMO_EMAIL = 'demo@example.com';
const ASSISTANT_NAME = 'Demo receptionist';
const STRATEGY_NAME = 'Demo caller context';

interface Envelope<T> {
  success: boolean;
  message: string;
  data: T;
}

async function call<T>(
  base: string,
  method: string,
  path: string,
  bearer: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${bearer}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const envelope = (await res.json()) as Envelope<T>;
  if (!res.ok) {
    const errors = (envelope.data as { errors?: unknown } | null)?.errors;
    throw new Error(
      `${method} ${path}: ${res.status} ${envelope.message}${errors ? ` ${JSON.stringify(errors)}` : ''}`,
    );
  }
  return envelope.data;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      url: { type: 'string', default: process.env.SERVICE_URL ?? 'http://localhost:3000' },
      'context-url': { type: 'string', default: 'http://127.0.0.1:4010/context' },
      'admin-key': { type: 'string', default: process.env.ADMIN_API_KEY },
    },
  });
  const base = values.url.replace(/\/$/, '');
  const adminKey = values['admin-key'];
  if (!adminKey) throw new Error('set ADMIN_API_KEY (the operator key the service runs with)');

  const { api_key: apiKey } = await call<{ api_key: string }>(
    base,
    'POST',
    '/auth/create-key',
    adminKey,
    {
      user_name: 'Demo',
      user_email: DEMO_EMAIL,
    },
  );

  const assistants = await call<{ items: { assistant_id: string; assistant_name: string }[] }>(
    base,
    'GET',
    '/assistant/list?limit=100',
    apiKey,
  );
  const assistantId =
    assistants.items.find((a) => a.assistant_name === ASSISTANT_NAME)?.assistant_id ??
    (
      await call<{ assistant_id: string }>(base, 'POST', '/assistant/create', apiKey, {
        assistant_name: ASSISTANT_NAME,
        assistant_description: 'Answers the demo number',
        assistant_prompt:
          'You are a friendly receptionist. The caller is {{context.customer_name | default: "a new customer"}} ({{context.tier | default: "standard"}} tier), calling from {{call.caller_number}}.',
        assistant_start_instruction:
          'Greet {{context.customer_name | default: "the caller"}} by name.',
        assistant_tts_model: 'cartesia',
        assistant_tts_config: { voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091' },
      })
    ).assistant_id;

  const strategies = await call<{ items: { strategy_id: string; strategy_name: string }[] }>(
    base,
    'GET',
    '/inbound_context_strategy/list?limit=100',
    apiKey,
  );
  const strategyConfig = {
    url: values['context-url'],
    timeout_seconds: 2,
    fallback_context: { customer_name: 'there', tier: 'unknown' },
  };
  const existingStrategy = strategies.items.find((s) => s.strategy_name === STRATEGY_NAME);
  const strategyId = existingStrategy
    ? (
        await call<{ strategy_id: string }>(
          base,
          'PATCH',
          `/inbound_context_strategy/update/${existingStrategy.strategy_id}`,
          apiKey,
          { strategy_config: strategyConfig },
        )
      ).strategy_id
    : (
        await call<{ strategy_id: string }>(
          base,
          'POST',
          '/inbound_context_strategy/create',
          apiKey,
          {
            strategy_name: STRATEGY_NAME,
            strategy_type: 'webhook',
            strategy_config: strategyConfig,
          },
        )
      ).strategy_id;

  const mappings = await call<{ items: { inbound_id: string; phone_number_normalized: string }[] }>(
    base,
    'GET',
    '/inbound/list?limit=100',
    apiKey,
  );
  const digits = DEMO_NUMBER.replace(/\D/g, '');
  const existingMapping = mappings.items.find((m) => m.phone_number_normalized === digits);
  const mapping = { assistant_id: assistantId, inbound_context_strategy_id: strategyId };
  if (existingMapping)
    await call(base, 'PATCH', `/inbound/update/${existingMapping.inbound_id}`, apiKey, {
      ...mapping,
      is_active: true,
    });
  else
    await call(base, 'POST', '/inbound/assign', apiKey, {
      ...mapping,
      service: 'exotel',
      inbound_config: { phone_number: DEMO_NUMBER },
    });

  process.stdout.write(
    [
      `API key (shown once): ${apiKey}`,
      `assistant ${assistantId}, strategy ${strategyId} -> ${values['context-url']}`,
      `inbound number ${DEMO_NUMBER} is routed to "${ASSISTANT_NAME}"`,
      'try a lookup:',
      `  REDIS_URL=redis://127.0.0.1:6379 npx ts-node --transpile-only examples/lookup-client.ts --inbound-number "${DEMO_NUMBER}" --caller "+919900011122"`,
      '',
    ].join('\n'),
  );
}

main().catch((error: unknown) => {
  process.stderr.write(
    `seed:demo failed: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exitCode = 1;
});
