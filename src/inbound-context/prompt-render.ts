/**
 * The one template renderer of the service: the lookup, the strategy dry run and
 * `POST /assistant/render/:assistant_id` all go through `renderTemplate`.
 *
 * Placeholders, with optional whitespace inside the braces:
 * - `{{context.<path>}}`: a key of the lookup's context (a literal key first, else a dotted walk);
 * - `{{call.<name>}}`: one of `CALL_VARIABLES`, the call the lookup serves;
 * - either with `| default: "text"` (or `'text'`): the text when the value is missing, null or empty.
 * Anything else between braces is left as it is.
 */
export const CALL_VARIABLES = [
  'caller_number',
  'inbound_number',
  'room_name',
  'inbound_id',
  'call_type',
] as const;

export type CallVariableName = (typeof CALL_VARIABLES)[number];

/** What `{{call.*}}` placeholders render; a name that is absent, null or empty counts as not provided. */
export type CallVariables = Partial<Record<CallVariableName, string | null>>;

export interface TemplateValues {
  context?: Record<string, unknown> | null;
  call?: CallVariables | null;
}

export interface RenderedTemplate {
  text: string;
  /** Placeholders (`context.name`, `call.caller_number`) that rendered as empty text: no value and no default. */
  missing: string[];
}

const PLACEHOLDER = new RegExp(
  String.raw`\{\{\s*(?:context\.([^\s{}|]+)|call\.(${CALL_VARIABLES.join('|')}))` +
    String.raw`\s*(?:\|\s*default\s*:\s*(?:"([^"]*)"|'([^']*)')\s*)?\}\}`,
  'g',
);

const has = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object';
}

/** The value at `path` in `context`: a literal key first (`"a.b"`), else a dotted walk through objects and arrays. */
export function resolveContextPath(
  context: Record<string, unknown> | null | undefined,
  path: string,
): unknown {
  if (!context) return undefined;
  if (has(context, path)) return context[path];
  let current: unknown = context;
  for (const part of path.split('.')) {
    if (!isRecord(current) || !has(current, part)) return undefined;
    current = current[part];
  }
  return current;
}

/** Strings as is; missing and null as empty text; anything else (numbers, booleans, objects, arrays) as JSON. */
export function formatContextValue(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value) ?? '';
}

/**
 * Renders every known placeholder of `template` in one pass (values are never re-expanded).
 * Without values (failed or skipped lookup) each renders as its default or empty text, so the
 * prompt never shows raw template syntax.
 */
export function renderTemplate(template: string, values: TemplateValues = {}): RenderedTemplate {
  const missing = new Set<string>();
  const text = template.replace(
    PLACEHOLDER,
    (_match, path?: string, callName?: CallVariableName, dq?: string, sq?: string) => {
      const value = path
        ? resolveContextPath(values.context, path)
        : values.call && callName && has(values.call, callName)
          ? values.call[callName]
          : undefined;
      const fallback = dq ?? sq;
      if (value === undefined || value === null || value === '') {
        if (fallback !== undefined) return fallback;
        missing.add(path ? `context.${path}` : `call.${callName}`);
        return '';
      }
      return formatContextValue(value);
    },
  );
  return { text, missing: [...missing] };
}

/** An assistant's prompt and start instruction rendered with the same values. */
export function renderAssistantTemplates(
  assistant: {
    assistant_prompt?: string | null;
    assistant_start_instruction?: string | null;
  } | null,
  values: TemplateValues,
): { prompt: string | null; start_instruction: string | null; missing: string[] } {
  const prompt = optional(assistant?.assistant_prompt, values);
  const start = optional(assistant?.assistant_start_instruction, values);
  return {
    prompt: prompt?.text ?? null,
    start_instruction: start?.text ?? null,
    missing: [...new Set([...(prompt?.missing ?? []), ...(start?.missing ?? [])])],
  };
}

function optional(template: string | null | undefined, values: TemplateValues) {
  return template === null || template === undefined ? null : renderTemplate(template, values);
}
