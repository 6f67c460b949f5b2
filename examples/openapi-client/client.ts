/**
 * A client typed only by the published OpenAPI document: `npm run test:client` generates
 * `generated/api.d.ts` from the built service's document with openapi-typescript and type-checks
 * this file against it. Run it against a service:
 *
 *   VAC_URL=http://localhost:3000 VAC_API_KEY=vac_... npx ts-node --transpile-only examples/openapi-client/client.ts
 */
import type { paths } from './generated/api';

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Body<P extends keyof paths, M extends 'post' | 'patch'> = Json<
  NonNullable<paths[P][M]>['requestBody']
>;
type Ok<P extends keyof paths, M extends 'get' | 'post'> = Json<
  NonNullable<paths[P][M]>['responses'][200]
>;

const baseUrl = process.env.VAC_URL ?? 'http://localhost:3000';
const headers = {
  Authorization: `Bearer ${process.env.VAC_API_KEY ?? ''}`,
  'Content-Type': 'application/json',
};

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const envelope = (await res.json()) as T & { success: boolean; message: string };
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${envelope.message}`);
  return envelope;
}

async function main(): Promise<void> {
  const assistantBody: Body<'/assistant/create', 'post'> = {
    assistant_name: 'Order status line',
    assistant_description: 'Answers order status questions',
    assistant_prompt: 'You help callers with the status of their orders.',
    assistant_llm_mode: 'pipeline',
    assistant_tts_model: 'cartesia',
    assistant_tts_config: { voice_id: 'a0e99841-438c-4a64-b679-ae501e7d6091' },
  };
  const created = await call<Ok<'/assistant/create', 'post'>>(
    'POST',
    '/assistant/create',
    assistantBody,
  );
  const assistantId: string = created.data.assistant_id;

  const toolBody: Body<'/tool/create', 'post'> = {
    tool_name: 'get_order_status',
    tool_description: 'Looks up an order by its number',
    tool_parameters: [
      { name: 'order_id', type: 'string', description: 'The order number', required: true },
    ],
    tool_execution_type: 'static_return',
    tool_execution_config: { value: { status: 'shipped' } },
  };
  const tool = await call<Ok<'/tool/create', 'post'>>('POST', '/tool/create', toolBody);
  const toolId: string = tool.data.tool_id;

  const attachBody: Body<'/tool/attach/{assistant_id}', 'post'> = { tool_ids: [toolId] };
  const attached = await call<Ok<'/tool/attach/{assistant_id}', 'post'>>(
    'POST',
    `/tool/attach/${assistantId}`,
    attachBody,
  );
  const logs = await call<Ok<'/logs', 'get'>>('GET', `/logs?assistant_id=${assistantId}&limit=10`);
  const latest: string | undefined = logs.data.logs[0]?.message;
  console.log({ assistantId, attached: attached.data, logCount: logs.data.total, latest });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
