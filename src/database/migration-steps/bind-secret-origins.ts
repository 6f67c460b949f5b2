import { Logger } from '@nestjs/common';
import type { QueryRunner } from 'typeorm';
import { originOf, PROVIDER } from '../../common/secrets/secret-origins';
import { referencedNames } from '../../common/secrets/secret-reference';

/** A stored JSON column as a value: as read, or parsed from its text (SQLite/MariaDB). */
function parsed(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return null;
  }
}

/** A stored JSON column that holds an object ({} when it does not). */
function json(value: unknown): Record<string, unknown> {
  const object = parsed(value);
  return object && typeof object === 'object' ? (object as Record<string, unknown>) : {};
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/** A webhook's URL and header values, all sent to the URL's origin. */
function webhookUses(config: unknown): [string, string | null][] {
  const { url, headers } = json(config);
  const destination = originOf(text(url));
  const values = [text(url), ...Object.values(json(headers)).map(text)];
  return values.flatMap((value) =>
    referencedNames(value).map((n): [string, string | null] => [n, destination]),
  );
}

/** An assistant's (or its snapshot's) end-call URL (its origin) and provider keys (`provider`). */
function assistantUses(row: Record<string, unknown>): [string, string | null][] {
  const url = text(row.assistant_end_call_url);
  const keys = [row.assistant_tts_config, row.assistant_llm_config].map((c) =>
    text(json(c).api_key),
  );
  return [
    ...referencedNames(url).map((n): [string, string | null] => [n, originOf(url)]),
    ...keys.flatMap((key) =>
      referencedNames(key).map((n): [string, string | null] => [n, PROVIDER]),
    ),
  ];
}

type Row = Record<string, unknown> & { user_id: string };

/** Every (owner, secret name, destination) the stored configuration references today. */
async function referencedToday(queryRunner: QueryRunner): Promise<Map<string, Set<string>>> {
  const select = (sql: string) => queryRunner.query(sql) as Promise<Row[]>;
  const found = new Map<string, Set<string>>();
  const add = (userId: string, uses: [string, string | null][]) => {
    for (const [name, destination] of uses) {
      if (destination === null) continue;
      const key = JSON.stringify([userId, name]);
      found.set(key, (found.get(key) ?? new Set()).add(destination));
    }
  };
  for (const row of await select(
    `SELECT user_id, tool_execution_type, tool_execution_config FROM tools`,
  ))
    if (row.tool_execution_type === 'webhook')
      add(row.user_id, webhookUses(row.tool_execution_config));
  for (const row of await select(`SELECT user_id, strategy_config FROM inbound_context_strategies`))
    add(row.user_id, webhookUses(row.strategy_config));
  for (const row of await select(
    `SELECT user_id, assistant_end_call_url, assistant_tts_config, assistant_llm_config FROM assistants`,
  ))
    add(row.user_id, assistantUses(row));
  for (const row of await select(`SELECT user_id, assistant, tools FROM assistant_versions`)) {
    add(row.user_id, assistantUses(json(row.assistant)));
    const tools = parsed(row.tools);
    for (const tool of Array.isArray(tools) ? (tools as Record<string, unknown>[]) : [])
      if (tool.tool_execution_type === 'webhook')
        add(row.user_id, webhookUses(tool.tool_execution_config));
  }
  return found;
}

/**
 * Binds every existing secret to the destinations that reference it today: the origins of the
 * URLs whose fields name it, or `provider` for a provider key. A secret referenced from both a
 * provider key and a URL keeps both, so nothing that works today stops, with one warning line
 * naming it (a change of its `allowed_origins` must then choose). A secret nothing references
 * stays unbound: its first use binds it. Plain SQL that both drivers run; returns the warnings.
 */
export async function bindSecretOrigins(
  queryRunner: QueryRunner,
  warn: (line: string) => void = (line) => new Logger('Migration').warn(line),
): Promise<string[]> {
  const lines: string[] = [];
  const secrets = (await queryRunner.query(
    `SELECT secret_id, user_id, secret_name FROM secrets`,
  )) as { secret_id: string; user_id: string; secret_name: string }[];
  const today = await referencedToday(queryRunner);
  for (const secret of secrets) {
    const destinations = today.get(JSON.stringify([secret.user_id, secret.secret_name]));
    if (!destinations) continue;
    const origins = [...destinations].sort();
    if (destinations.has(PROVIDER) && origins.length > 1) {
      const line = `secret ${secret.secret_name} of user ${secret.user_id} is both a provider key and sent to ${origins.filter((o) => o !== PROVIDER).join(', ')}: bound to all of them`;
      lines.push(line);
      warn(line);
    }
    await queryRunner.query(
      `UPDATE secrets SET allowed_origins = ?, updated_at = updated_at WHERE secret_id = ?`,
      [JSON.stringify(origins), secret.secret_id],
    );
  }
  return lines;
}
