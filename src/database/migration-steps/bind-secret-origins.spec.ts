import type { QueryRunner } from 'typeorm';
import { bindSecretOrigins } from './bind-secret-origins';

/** A query runner over fixed rows, recording the updates the step makes. */
function runner(tables: Record<string, unknown[]>) {
  const updates: [string, string][] = [];
  const query = (sql: string, params?: string[]) => {
    if (sql.startsWith('UPDATE')) {
      updates.push([params![1], params![0]]);
      return Promise.resolve([]);
    }
    const table = /FROM (\w+)/.exec(sql)![1];
    return Promise.resolve(tables[table] ?? []);
  };
  return { queryRunner: { query } as unknown as QueryRunner, updates };
}

describe(bindSecretOrigins.name, () => {
  it('binds each secret to the origins and provider keys that reference it today', async () => {
    const { queryRunner, updates } = runner({
      secrets: [
        { secret_id: 's-tool', user_id: 'u1', secret_name: 'CRM' },
        { secret_id: 's-key', user_id: 'u1', secret_name: 'TTS' },
        { secret_id: 's-both', user_id: 'u1', secret_name: 'BOTH' },
        { secret_id: 's-free', user_id: 'u1', secret_name: 'FREE' },
        { secret_id: 's-other', user_id: 'u2', secret_name: 'CRM' },
      ],
      tools: [
        {
          user_id: 'u1',
          tool_execution_type: 'webhook',
          tool_execution_config: JSON.stringify({
            url: 'https://API.example.com:443/x?k={{secret.CRM}}',
            headers: { A: 'Bearer {{secret.BOTH}}' },
          }),
        },
      ],
      inbound_context_strategies: [
        {
          user_id: 'u1',
          strategy_config: { url: 'https://ctx.example.org/c', headers: { B: '{{secret.CRM}}' } },
        },
      ],
      assistants: [
        {
          user_id: 'u1',
          assistant_end_call_url: null,
          assistant_tts_config: '{"api_key":"{{secret.TTS}}"}',
          assistant_llm_config: null,
        },
      ],
      assistant_versions: [
        {
          user_id: 'u1',
          assistant: { assistant_llm_config: { api_key: '{{secret.BOTH}}' } },
          tools: '[]',
        },
      ],
    });
    const warned: string[] = [];
    const lines = await bindSecretOrigins(queryRunner, (line) => warned.push(line));
    expect(Object.fromEntries(updates)).toEqual({
      's-tool': JSON.stringify(['https://api.example.com', 'https://ctx.example.org']),
      's-key': JSON.stringify(['provider']),
      's-both': JSON.stringify(['https://api.example.com', 'provider']),
    });
    // Unreferenced, and another user's secret of the same name, stay unbound.
    expect(warned).toEqual(lines);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('BOTH');
  });
});
