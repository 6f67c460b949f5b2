import { existsSync, readFileSync, statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { BundleFileError, parseBundleText } from './bundle-yaml';
import type { ConfigChange } from './config-diff';

export const BUNDLE_COMMANDS = ['export', 'plan', 'apply'] as const;
export type BundleCommand = (typeof BUNDLE_COMMANDS)[number];

export const BUNDLE_USAGE = `  npm run cli -- export --url <base URL> --key <key file or key> [--format yaml|json]
  npm run cli -- plan   --url <base URL> --key <key file or key> [--prune] [--base-revision R] <bundle file>
  npm run cli -- apply  --url <base URL> --key <key file or key> [--prune] [--base-revision R] <bundle file>
            configuration as code against a running service: export writes the bundle to stdout;
            plan lists what the file would change; apply plans, prints the plan and applies it at
            the revision it planned (or at --base-revision: the plan must still be current)`;

/** Where a command writes (stdout and stderr; a test passes its own). */
export interface Output {
  out: (text: string) => void;
  err: (text: string) => void;
}

interface Envelope {
  success?: boolean;
  message?: string;
  data?: Record<string, unknown> | null;
}

/** A failed call, told as the service told it: the message and each field at fault. */
class CallFailed extends Error {}

/** `export`, `plan` or `apply`; the exit code (2: wrong usage, 1: the service refused). */
export async function runBundleCommand(
  command: BundleCommand,
  args: string[],
  io: Output,
): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(command, args);
  } catch (error) {
    io.err(`${(error as Error).message}\n`);
    return 2;
  }
  try {
    if (command === 'export') return await exportBundle(options, io);
    const body = { bundle: options.bundle, prune: options.prune };
    const plan = await call(options, 'POST', '/config/plan', {
      ...body,
      base_revision: options.baseRevision ?? null,
    });
    io.out(planText(plan as { revision: string; changes: ConfigChange[] }));
    if (command === 'plan' || !(plan.changes as unknown[]).length) return 0;
    const applied = await call(options, 'POST', '/config/apply', {
      ...body,
      base_revision: options.baseRevision ?? plan.revision,
    });
    io.out(`Applied ${String(applied.applied)} change(s); revision ${String(applied.revision)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof CallFailed)) throw error;
    io.err(`${command} failed: ${error.message}\n`);
    return 1;
  }
}

function parse(command: BundleCommand, args: string[]) {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      url: { type: 'string' },
      key: { type: 'string' },
      format: { type: 'string' },
      prune: { type: 'boolean' },
      'base-revision': { type: 'string' },
    },
  });
  if (!values.url || !values.key) throw new Error(`${command} needs --url and --key`);
  const key =
    existsSync(values.key) && statSync(values.key).isFile()
      ? readFileSync(values.key, 'utf8').trim()
      : values.key;
  const common = { url: values.url.replace(/\/+$/, ''), key, format: values.format ?? 'yaml' };
  if (command === 'export') {
    if (positionals.length) throw new Error('export takes no file: it writes to stdout');
    if (!['yaml', 'json'].includes(common.format)) throw new Error('--format is yaml or json');
    return { ...common, bundle: undefined, prune: false, baseRevision: undefined };
  }
  if (positionals.length !== 1) throw new Error(`${command} takes one bundle file (JSON or YAML)`);
  let bundle: unknown;
  try {
    const bundleFile = parseBundleText(readFileSync(positionals[0], 'utf8'));
    bundle = bundleFile;
  } catch (error) {
    if (error instanceof BundleFileError) throw new Error(`${positionals[0]}: ${error.message}`);
    throw error;
  }
  return { ...common, bundle, prune: values.prune ?? false, baseRevision: values['base-revision'] };
}

type Options = ReturnType<typeof parse>;

async function exportBundle(options: Options, io: Output): Promise<number> {
  const res = await fetch(`${options.url}/config/export?format=${options.format}`, {
    headers: { Authorization: `Bearer ${options.key}` },
  });
  if (!res.ok) throw new CallFailed(failure(res.status, await res.text()));
  const text = await res.text();
  io.out(
    options.format === 'json'
      ? `${JSON.stringify((JSON.parse(text) as Envelope).data, null, 2)}\n`
      : text,
  );
  return 0;
}

async function call(
  options: Options,
  method: string,
  path: string,
  body: object,
): Promise<Record<string, unknown>> {
  const res = await fetch(`${options.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${options.key}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new CallFailed(failure(res.status, text));
  return (JSON.parse(text) as Envelope).data ?? {};
}

/** The service's refusal: status, message, and each field it names. */
function failure(status: number, text: string): string {
  let envelope: Envelope = {};
  try {
    envelope = JSON.parse(text) as Envelope;
  } catch {
    return `HTTP ${status}: ${text.slice(0, 200)}`;
  }
  const errors = (envelope.data?.errors ?? []) as Array<{ field: string; message: string }>;
  return [
    `HTTP ${status}: ${envelope.message ?? ''}`,
    ...errors.map((e) => `  ${e.field}: ${e.message}`),
  ].join('\n');
}

const SIGNS: Record<ConfigChange['action'], string> = { create: '+', update: '~', delete: '-' };

/** The plan as a person reads it: a summary, then one line a change. */
export function planText(plan: { revision: string; changes: ConfigChange[] }): string {
  const count = (action: string) => plan.changes.filter((c) => c.action === action).length;
  if (!plan.changes.length) return `No changes (revision ${plan.revision}).\n`;
  const lines = plan.changes.map((change) => {
    const at = `${change.resource_type}[${change.name}]`;
    if (change.action === 'delete') return `  - ${at}`;
    return `  ${SIGNS[change.action]} ${at}: ${change.fields.join(', ')}`;
  });
  const summary = `${count('create')} to create, ${count('update')} to update, ${count('delete')} to delete`;
  return `Plan at revision ${plan.revision}: ${summary}\n${lines.join('\n')}\n`;
}
