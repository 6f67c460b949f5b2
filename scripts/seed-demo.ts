/**
 * Demo data for a first run, created through the API of a running service as a user would:
 * a user and API key, an assistant whose prompt uses the caller's context, an inbound context
 * strategy calling the demo context endpoint (with a fallback context for when it is down), and
 * an inbound mapping for the demo number. Running it again reuses what exists.
 *
 *   ADMIN_API_KEY=… npm run seed:demo [-- --url http://localhost:3000 --context-url http://127.0.0.1:4010/context]
 *   npm run seed:demo -- --help
 *
 * Stops at the first request that fails, with the route, the status and the service's message.
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
  }).catch((error: unknown) => {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new Error(
      `cannot reach the service at ${base} (${cause?.code ?? cause?.message ?? String(error)}): start it, or pass --url`,
    );
  });
  const text = await res.text();
  let envelope: Envelope<T>;
  try {
    envelope = JSON.parse(text) as Envelope<T>;
  } catch {
    throw new Error(
      `${method} ${path}: ${res.status}, not the service's answer: ${text.slice(0, 200)}`,
    );
  }
  if (!res.ok) {
    const errors = (envelope.data as { errors?: unknown } | null)?.errors;
    throw new Error(
      `${method} ${path}: ${res.status} ${envelope.message}${errors ? ` ${JSON.stringify(errors)}` : ''}`,
    );
  }
  return envelope.data;
}

export const USAGE = `Creates demo data through the API of a running service: a user and API key, an
assistant whose prompt uses the caller's context, a strategy calling the demo context endpoint (with a
fallback context) and a mapping for ${DEMO_NUMBER}. Running it again reuses what exists.

Usage: ADMIN_API_KEY=… npm run seed:demo [-- options]

  --url <url>          the service (default: SERVICE_URL or http://localhost:3000)
  --context-url <url>  the context endpoint the strategy calls (default: http://127.0.0.1:4010/context)
  --admin-key <key>    the service's operator key (default: ADMIN_API_KEY)
  --redis-url <url>    the Redis the service uses, for the lookup command it prints (default:
                       REDIS_URL; unset: asked of the service's GET /health)
  -h, --help           this text
`;

export interface SeedOptions {
  url: string;
  contextUrl: string;
  adminKey: string;
  /** The Redis the service's queues are on, when known; else GET /health says whether there is one. */
  redisUrl?: string;
  /** The queue prefix the service uses, when not Bull's default. */
  queuePrefix?: string;
}

/** The options of a command line (`--help`: the usage instead). */
export function parseSeedArgs(
  args: string[],
  env: NodeJS.ProcessEnv,
): { help: string } | { options: SeedOptions } {
  const { values } = parseArgs({
    args,
    options: {
      url: { type: 'string', default: env.SERVICE_URL ?? 'http://localhost:3000' },
      'context-url': { type: 'string', default: 'http://127.0.0.1:4010/context' },
      'admin-key': { type: 'string', default: env.ADMIN_API_KEY },
      'redis-url': { type: 'string', default: env.REDIS_URL || undefined },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) return { help: USAGE };
  if (!values['admin-key'])
    throw new Error('set ADMIN_API_KEY (the operator key the service runs with), or see --help');
  return {
    options: {
      url: values.url.replace(/\/$/, ''),
      contextUrl: values['context-url'],
      adminKey: values['admin-key'],
      redisUrl: values['redis-url'],
      queuePrefix: env.QUEUE_PREFIX || undefined,
    },
  };
}

/**
 * How to try a lookup against this service: the example client on the Redis the service uses, or,
 * when the service runs jobs in-process (no Redis), what to start first.
 */
export async function lookupHint(options: SeedOptions): Promise<string[]> {
  const client = `npx ts-node --transpile-only examples/lookup-client.ts --inbound-number "${DEMO_NUMBER}" --caller "+919900011122"`;
  const prefix = options.queuePrefix ? `QUEUE_PREFIX=${options.queuePrefix} ` : '';
  if (options.redisUrl)
    return ['try a lookup:', `  REDIS_URL=${options.redisUrl} ${prefix}${client}`];
  const health = (await fetch(`${options.url}/health`)
    .then((res) => res.json())
    .catch(() => null)) as { data?: { details?: { redis?: { status?: string } } } } | null;
  if (health?.data?.details?.redis?.status === 'not_used')
    return [
      'the service runs jobs in-process (no REDIS_URL): a producer reaches it only through Redis, so',
      'restart it with REDIS_URL=redis://… and run the example lookup on that Redis:',
      `  REDIS_URL=<the same Redis> ${prefix}${client}`,
    ];
  return [
    'try a lookup (on the Redis the service uses; pass --redis-url to have it filled in):',
    `  REDIS_URL=<the service's REDIS_URL> ${prefix}${client}`,
  ];
}

/** Creates (or reuses) the demo records; returns what to print. */
export async function seedDemo(options: SeedOptions): Promise<string> {
  const { url: base, adminKey } = options;
  const values = { 'context-url': options.contextUrl };

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

  return [
    `API key (shown once): ${apiKey}`,
    `assistant ${assistantId}, strategy ${strategyId} -> ${values['context-url']}`,
    `inbound number ${DEMO_NUMBER} is routed to "${ASSISTANT_NAME}"`,
    ...(await lookupHint(options)),
    '',
  ].join('\n');
}

async function main(): Promise<void> {
  const parsed = parseSeedArgs(process.argv.slice(2), process.env);
  if ('help' in parsed) process.stdout.write(parsed.help);
  else process.stdout.write(await seedDemo(parsed.options));
}

if (require.main === module)
  main().catch((error: unknown) => {
    process.stderr.write(
      `seed:demo failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exitCode = 1;
  });
