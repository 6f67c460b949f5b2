/**
 * Prism's validating proxy (`prism proxy --errors`) in front of the built service, and a scripted
 * sequence of every route through it: pipeline and realtime assistants, published versions,
 * tools, strategies, mappings, logs, keys, health; happy paths (with the document's own request
 * examples) and bad ones. Prism checks each request and response against the document; any
 * violation it reports, or a status other than the one the step expects, fails the run.
 *
 *   npm run build && npm run test:prism
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeOpenApiDocument } from '../openapi-document';
import { freePort } from '../../test/utils/free-port';
import {
  ADMIN_KEY,
  ROOT,
  startBuiltService,
  startContextEndpoint,
  startProcess,
} from './built-service';

type Json = Record<string, unknown>;
type Doc = { paths: Record<string, Record<string, { requestBody?: { content: Json } }>> };

const EXAMPLE_IDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'vac-prism-'));
  const documentPath = join(dir, 'openapi.json');
  await writeOpenApiDocument(documentPath);
  const doc = JSON.parse(readFileSync(documentPath, 'utf8')) as Doc;
  const service = await startBuiltService();
  const context = await startContextEndpoint();
  const prismPort = await freePort();
  const base = `http://127.0.0.1:${prismPort}`;
  const prism = await startProcess(
    'prism proxy',
    join(ROOT, 'node_modules/.bin/prism'),
    ['proxy', '--errors', '-h', '127.0.0.1', '-p', String(prismPort), documentPath, service.base],
    { PATH: process.env.PATH, HOME: process.env.HOME },
    `${base}/health/live`,
  );
  const failures: string[] = [];
  let sent = 0;

  /** The first request example the document gives for an operation, ids replaced. */
  const example = (method: string, path: string, ids: string[] = []): Json => {
    const media = doc.paths[path][method].requestBody?.content['application/json'] as
      { examples?: Record<string, { value: Json }> } | undefined;
    const first = Object.values(media?.examples ?? {})[0];
    if (!first) throw new Error(`${method.toUpperCase()} ${path} has no request example`);
    let i = 0;
    return JSON.parse(
      JSON.stringify(first.value).replace(EXAMPLE_IDS, (id) => ids[i++] ?? id),
    ) as Json;
  };

  const call = async (
    expected: number,
    method: string,
    path: string,
    options: { key?: string; body?: unknown } = {},
  ): Promise<Json> => {
    sent += 1;
    const res = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(options.key ? { Authorization: `Bearer ${options.key}` } : {}),
        ...(options.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    const where = `${method} ${path} → ${res.status}`;
    const violations = res.headers.get('sl-violations');
    if (violations) failures.push(`${where}: Prism reports ${violations}`);
    if (/problem\+json/.test(res.headers.get('content-type') ?? '') && /stoplight/.test(text))
      failures.push(`${where}: Prism refused it: ${text.slice(0, 600)}`);
    else if (res.status !== expected)
      failures.push(`${where}, expected ${expected}: ${text.slice(0, 300)}`);
    try {
      return JSON.parse(text) as Json;
    } catch {
      return {};
    }
  };
  const data = (body: Json) => (body.data ?? {}) as Json;

  try {
    // Canary: on every operation that takes a body, one the document refuses (an unknown field;
    // every request body is closed) must be refused by Prism itself (problem+json). A schema
    // construct Prism cannot compile makes it forward that operation unchecked, silently (null
    // listed in an enum did); then nothing below would prove anything for it.
    const unchecked: string[] = [];
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const method of ['post', 'patch'] as const) {
        if (!item[method]?.requestBody) continue;
        const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
          name === 'secret_name' ? 'CANARY' : '00000000-0000-4000-8000-000000000000',
        );
        const key = path === '/auth/create-key' ? ADMIN_KEY : 'vac_canary';
        const res = await fetch(`${base}${url}`, {
          method: method.toUpperCase(),
          headers: { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ not_in_the_document: 1 }),
        });
        const text = await res.text();
        if (!/problem\+json/.test(res.headers.get('content-type') ?? '') || !/stoplight/.test(text))
          unchecked.push(`${method.toUpperCase()} ${path} (${res.status} ${text.slice(0, 120)})`);
      }
    }
    if (unchecked.length > 0)
      throw new Error(
        `prism proxy does not validate these operations: a body the document refuses reached the service:\n  ${unchecked.join('\n  ')}`,
      );

    // Keys: a management key and a runtime key, through the operator route.
    const created = await call(200, 'POST', '/auth/create-key', {
      key: ADMIN_KEY,
      body: {
        user_name: 'Ada',
        user_email: 'ada@example.com',
        org_name: 'Acme',
        scopes: ['config', 'runtime'],
      },
    });
    const key = data(created).api_key as string;
    const runtime = await call(200, 'POST', '/auth/create-key', {
      key: ADMIN_KEY,
      body: { user_name: 'Call stack', user_email: 'calls@example.com', scopes: ['runtime'] },
    });
    // Another user's keys, one scope each: the scope checks answer 403 before any lookup.
    const runtimeKey = data(runtime).api_key as string;
    const configOnly = data(
      await call(200, 'POST', '/auth/create-key', {
        key: ADMIN_KEY,
        body: { user_name: 'Dashboard', user_email: 'dash@example.com' },
      }),
    ).api_key as string;
    await call(200, 'GET', '/auth/check-key', { key });
    const keys = await call(200, 'GET', '/auth/keys', { key: configOnly });
    await call(200, 'GET', '/auth/keys?shape=array', { key: configOnly });
    await call(200, 'GET', '/auth/webhook-secret', { key });
    await call(200, 'POST', '/auth/webhook-secret/rotate', { key });
    await call(200, 'GET', '/auth/webhook-secret', { key });
    await call(401, 'GET', '/auth/check-key', { key: 'vac_not_a_key_0123456789' });

    // Assistants: pipeline and realtime, from the document's examples.
    const assistantExamples = Object.values(
      (
        doc.paths['/assistant/create'].post.requestBody!.content['application/json'] as {
          examples: Record<string, { value: Json }>;
        }
      ).examples,
    ).map((e) => e.value);
    const ids: string[] = [];
    for (const body of assistantExamples) {
      ids.push(
        data(await call(200, 'POST', '/assistant/create', { key, body })).assistant_id as string,
      );
    }
    const pipelineId = ids[0];
    const realtimeId = ids.find((_, i) => assistantExamples[i].assistant_llm_mode === 'realtime');
    if (!realtimeId) throw new Error('the assistant examples have no realtime assistant');
    await call(200, 'GET', '/assistant/list', { key });
    await call(200, 'GET', '/assistant/list?page=1&limit=1', { key });
    for (const id of ids) {
      await call(200, 'GET', `/assistant/details/${id}`, { key });
      await call(200, 'PATCH', `/assistant/update/${id}`, {
        key,
        body: example('patch', '/assistant/update/{assistant_id}'),
      });
      await call(200, 'POST', `/assistant/render/${id}`, {
        key,
        body: example('post', '/assistant/render/{assistant_id}'),
      });
      await call(200, 'POST', `/assistant/publish/${id}`, {
        key,
        body: example('post', '/assistant/publish/{assistant_id}'),
      });
      await call(200, 'GET', `/assistant/details/${id}?version=1`, { key });
      await call(200, 'GET', `/assistant/versions/${id}`, { key });
      await call(200, 'GET', `/assistant/runtime/${id}`, { key });
      await call(200, 'GET', `/assistant/runtime/${id}?version=1`, { key });
    }
    // Clearing the TTS config of a realtime assistant, and the realtime mode's own rule.
    await call(200, 'PATCH', `/assistant/update/${realtimeId}`, {
      key,
      body: { assistant_tts_model: null, assistant_tts_config: null },
    });
    await call(200, 'GET', `/assistant/details/${realtimeId}`, { key });
    await call(400, 'POST', '/assistant/create', {
      key,
      body: {
        ...assistantExamples.find((b) => b.assistant_llm_mode === 'realtime'),
        assistant_llm_config: null,
      },
    });
    const missing = '5d0c8a7e-1b2c-4d3e-8f9a-0b1c2d3e4f5a';
    await call(404, 'GET', `/assistant/details/${missing}`, { key });
    await call(404, 'GET', `/assistant/details/${pipelineId}?version=99`, { key });
    await call(403, 'GET', `/assistant/runtime/${pipelineId}`, { key: configOnly });
    await call(403, 'GET', `/assistant/details/${pipelineId}`, { key: runtimeKey });

    // Tools.
    const toolIds: string[] = [];
    for (const value of Object.values(
      (
        doc.paths['/tool/create'].post.requestBody!.content['application/json'] as {
          examples: Record<string, { value: Json }>;
        }
      ).examples,
    )) {
      toolIds.push(
        data(await call(200, 'POST', '/tool/create', { key, body: value.value })).tool_id as string,
      );
    }
    await call(200, 'GET', '/tool/list', { key });
    for (const id of toolIds) {
      await call(200, 'GET', `/tool/details/${id}`, { key });
      await call(200, 'PATCH', `/tool/update/${id}`, {
        key,
        body: example('patch', '/tool/update/{tool_id}'),
      });
    }
    await call(200, 'POST', `/tool/attach/${pipelineId}`, {
      key,
      body: example('post', '/tool/attach/{assistant_id}', [toolIds[0]]),
    });
    await call(200, 'POST', `/tool/attach/${pipelineId}`, { key, body: { tool_ids: toolIds } });
    await call(200, 'GET', `/assistant/details/${pipelineId}`, { key });
    await call(200, 'POST', `/tool/detach/${pipelineId}`, {
      key,
      body: example('post', '/tool/detach/{assistant_id}', [toolIds[1]]),
    });
    await call(404, 'POST', `/tool/attach/${pipelineId}`, { key, body: { tool_ids: [missing] } });
    await call(404, 'GET', `/tool/details/${missing}`, { key });

    // Strategies: the example, then one pointing at a context endpoint that answers.
    const strategyExample = example('post', '/inbound_context_strategy/create');
    const exampleStrategy = data(
      await call(200, 'POST', '/inbound_context_strategy/create', { key, body: strategyExample }),
    ).strategy_id as string;
    const strategyId = data(
      await call(200, 'POST', '/inbound_context_strategy/create', {
        key,
        body: {
          ...strategyExample,
          strategy_config: { ...(strategyExample.strategy_config as Json), url: context.url },
        },
      }),
    ).strategy_id as string;
    await call(200, 'GET', '/inbound_context_strategy/list', { key });
    await call(200, 'GET', `/inbound_context_strategy/details/${strategyId}`, { key });
    await call(200, 'PATCH', `/inbound_context_strategy/update/${exampleStrategy}`, {
      key,
      body: example('patch', '/inbound_context_strategy/update/{strategy_id}'),
    });
    await call(200, 'POST', `/inbound_context_strategy/test/${strategyId}`, {
      key,
      body: {
        ...example('post', '/inbound_context_strategy/test/{strategy_id}'),
        assistant_id: pipelineId,
      },
    });
    await call(404, 'GET', `/inbound_context_strategy/details/${missing}`, { key });

    // Mappings: the example (working copy), then pinned to a published version with a strategy.
    const assign = example('post', '/inbound/assign', [pipelineId]);
    const inboundId = data(await call(200, 'POST', '/inbound/assign', { key, body: assign }))
      .inbound_id as string;
    await call(409, 'POST', '/inbound/assign', { key, body: assign });
    const pinned = data(
      await call(200, 'POST', '/inbound/assign', {
        key,
        body: {
          ...assign,
          assistant_id: realtimeId,
          assistant_version: 1,
          inbound_context_strategy_id: strategyId,
          inbound_config: { phone_number: '+91 80 1234 9999' },
        },
      }),
    ).inbound_id as string;
    await call(200, 'GET', '/inbound/list', { key });
    // Two assistants share the example's name by now: the bundle could not tell them apart.
    await call(409, 'GET', '/config/export', { key });
    await call(409, 'POST', '/config/plan', { key, body: { bundle: {} } });
    await call(200, 'GET', `/inbound/details/${pinned}`, { key });
    await call(200, 'POST', `/inbound/policy-check/${inboundId}`, {
      key,
      body: example('post', '/inbound/policy-check/{inbound_id}'),
    });
    await call(400, 'POST', `/inbound/policy-check/${inboundId}`, { key, body: { at: 'noon' } });
    await call(200, 'PATCH', `/inbound/update/${inboundId}`, {
      key,
      body: example('patch', '/inbound/update/{inbound_id}'),
    });
    await call(200, 'PATCH', `/inbound/update/${pinned}`, {
      key,
      body: { inbound_context_strategy_id: null, assistant_version: null },
    });
    await call(404, 'POST', '/inbound/assign', {
      key,
      body: {
        ...assign,
        assistant_version: 7,
        inbound_config: { phone_number: '+91 80 1234 7777' },
      },
    });
    await call(200, 'GET', `/admin/numbers/${encodeURIComponent('+918012349999')}`, {
      key: ADMIN_KEY,
    });

    // Event subscriptions: the example, then one on the context endpoint, pinged (its delivery is
    // an entry, replayed); an unknown event type is refused by the document itself (e2e: the 400).
    const subscriptionExample = example('post', '/event-subscription/create');
    const exampleSubscription = data(
      await call(200, 'POST', '/event-subscription/create', { key, body: subscriptionExample }),
    ).subscription_id as string;
    const subscriptionId = data(
      await call(200, 'POST', '/event-subscription/create', {
        key,
        body: { ...subscriptionExample, url: context.url },
      }),
    ).subscription_id as string;
    await call(200, 'GET', '/event-subscription/list', { key });
    await call(200, 'GET', `/event-subscription/details/${subscriptionId}`, { key });
    await call(200, 'PATCH', `/event-subscription/update/${exampleSubscription}`, {
      key,
      body: example('patch', '/event-subscription/update/{subscription_id}'),
    });
    const ping = data(
      await call(200, 'POST', `/event-subscription/test/${subscriptionId}`, { key }),
    );
    await call(200, 'POST', `/logs/replay/${String(ping.log_id)}`, { key });
    await call(404, 'GET', `/event-subscription/details/${missing}`, { key });
    await call(200, 'DELETE', `/event-subscription/delete/${exampleSubscription}`, { key });
    await call(200, 'DELETE', `/event-subscription/delete/${subscriptionId}`, { key });

    // The activity log the strategy test wrote.
    await call(200, 'GET', '/logs', { key });
    await call(200, 'GET', '/logs?log_type=inbound_context_lookup&status=success', { key });
    await call(200, 'GET', '/logs?error_class=timeout', { key });
    await call(200, 'GET', `/logs?trace_id=${'ab'.repeat(16)}`, { key });
    await call(200, 'GET', '/logs/health', { key });
    await call(200, 'GET', '/logs/health?log_type=tool_call', { key });
    await call(400, 'GET', '/logs/health?from=yesterday', { key });
    await call(404, 'POST', '/logs/replay/999999999', { key });

    // Health.
    await call(200, 'GET', '/health');
    await call(200, 'GET', '/health/ready');
    await call(200, 'GET', '/health/live');

    // Deletes, in dependency order, then a revoked key.
    await call(200, 'DELETE', `/inbound/delete/${pinned}`, { key });
    await call(200, 'DELETE', `/inbound/delete/${inboundId}`, { key });
    await call(404, 'DELETE', `/admin/numbers/${encodeURIComponent('+918012345678')}`, {
      key: ADMIN_KEY,
    });
    await call(200, 'DELETE', `/inbound_context_strategy/delete/${strategyId}`, { key });
    await call(200, 'DELETE', `/tool/delete/${toolIds[0]}`, { key });
    await call(200, 'DELETE', `/assistant/delete/${pipelineId}`, { key });
    await call(404, 'DELETE', `/assistant/delete/${pipelineId}`, { key });
    const ownKeyId = (data(keys) as unknown as { items?: Json[] }).items?.[0]?.api_key_id as
      string | undefined;
    if (ownKeyId) await call(200, 'DELETE', `/auth/keys/${ownKeyId}`, { key: configOnly });
  } finally {
    await prism.stop();
    await service.stop();
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  }
  if (failures.length > 0) {
    process.stdout.write(
      `prism proxy: ${failures.length} problem(s) in ${sent} requests\n  ${failures.join('\n  ')}\n`,
    );
    process.exitCode = 1;
  } else {
    process.stdout.write(`prism proxy --errors: ${sent} requests, no violation\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exitCode = 1;
});
