/**
 * The one template renderer of the service: the lookup, the strategy dry run and
 * `POST /assistant/render/:assistant_id` all go through `renderTemplate`, with the same bound
 * (`MAX_RENDERED_PROMPT_BYTES`) on what it may produce.
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
  // A number with an inbound policy: the moment on its zone's wall, and its hours.
  'local_time',
  'local_date',
  'is_open',
  'next_open',
] as const;

export type CallVariableName = (typeof CALL_VARIABLES)[number];

/** What `{{call.*}}` placeholders render; a name that is absent, null or empty counts as not provided. */
export type CallVariables = Partial<Record<CallVariableName, string | null>>;

export interface TemplateValues {
  context?: Record<string, unknown> | null;
  call?: CallVariables | null;
}

export interface RenderedTemplate {
  /** At most `maxBytes` bytes of UTF-8: cut there (on a character boundary) when `exceeded`. */
  text: string;
  /** Placeholders (`context.name`, `call.caller_number`) that rendered as empty text: no value and no default. */
  missing: string[];
  /** The whole rendering would have been longer than `maxBytes`; `missing` then covers only what was read. */
  exceeded: boolean;
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
 *
 * The output is built piece by piece and stops as soon as the next piece would pass `maxBytes`:
 * the work is linear in the template plus at most `maxBytes` of output, never the template's
 * placeholders times a value's size (a few thousand placeholders of one 60 KB value would be
 * hundreds of megabytes).
 */
export function renderTemplate(
  template: string,
  values: TemplateValues,
  /** `MAX_RENDERED_PROMPT_BYTES`: every caller passes the bound, none renders without one. */
  maxBytes: number,
): RenderedTemplate {
  const missing = new Set<string>();
  const out = new BoundedText(maxBytes);
  const placeholder = new RegExp(PLACEHOLDER);
  let copied = 0;
  for (let match = placeholder.exec(template); match; match = placeholder.exec(template)) {
    if (!out.append(template.slice(copied, match.index))) break;
    copied = match.index + match[0].length;
    const [, path, callName, dq, sq] = match;
    const text = placeholderText(values, path, callName as CallVariableName, dq ?? sq, missing);
    if (!out.append(text)) break;
  }
  if (!out.exceeded) out.append(template.slice(copied));
  return { text: out.text(), missing: [...missing], exceeded: out.exceeded };
}

function placeholderText(
  values: TemplateValues,
  path: string | undefined,
  callName: CallVariableName | undefined,
  fallback: string | undefined,
  missing: Set<string>,
): string {
  const value = path
    ? resolveContextPath(values.context, path)
    : values.call && callName && has(values.call, callName)
      ? values.call[callName]
      : undefined;
  if (value === undefined || value === null || value === '') {
    if (fallback !== undefined) return fallback;
    missing.add(path ? `context.${path}` : `call.${callName}`);
    return '';
  }
  return formatContextValue(value);
}

/** Pieces of text whose UTF-8 size stays within a limit: the piece that would pass it is cut and ends the text. */
class BoundedText {
  private readonly pieces: string[] = [];
  private bytes = 0;
  exceeded = false;

  constructor(private readonly maxBytes: number) {}

  /** False once the limit is reached: nothing more is taken. */
  append(piece: string): boolean {
    if (this.exceeded) return false;
    const room = this.maxBytes - this.bytes;
    const size = Buffer.byteLength(piece);
    if (size <= room) {
      this.pieces.push(piece);
      this.bytes += size;
      return true;
    }
    this.pieces.push(utf8Prefix(piece, room));
    this.bytes = this.maxBytes;
    this.exceeded = true;
    return false;
  }

  text(): string {
    return this.pieces.join('');
  }
}

/** The longest prefix of `text` whose UTF-8 encoding fits in `maxBytes`, never splitting a character. */
export function utf8Prefix(text: string, maxBytes: number): string {
  if (maxBytes <= 0) return '';
  // Each UTF-16 unit is at least one byte, so no more than `maxBytes` units can fit.
  let head = text.slice(0, maxBytes);
  const last = head.charCodeAt(head.length - 1);
  if (last >= 0xd800 && last <= 0xdbff) head = head.slice(0, -1);
  const bytes = Buffer.from(head, 'utf8');
  if (bytes.length <= maxBytes) return head;
  let end = maxBytes;
  // Back off continuation bytes (10xxxxxx) to the start of the character the limit splits.
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) end--;
  return bytes.subarray(0, end).toString('utf8');
}

/** Which of an assistant's templates rendered past the limit. */
export type AssistantTemplateField = 'assistant_prompt' | 'assistant_start_instruction';

export interface RenderedAssistantTemplates {
  prompt: string | null;
  start_instruction: string | null;
  missing: string[];
  /** The templates whose rendering passed `maxBytes` (their text is cut there); empty when both fit. */
  exceeded: AssistantTemplateField[];
}

/** An assistant's prompt and start instruction rendered with the same values, each within `maxBytes`. */
export function renderAssistantTemplates(
  assistant: {
    assistant_prompt?: string | null;
    assistant_start_instruction?: string | null;
  } | null,
  values: TemplateValues,
  maxBytes: number,
): RenderedAssistantTemplates {
  const prompt = optional(assistant?.assistant_prompt, values, maxBytes);
  const start = optional(assistant?.assistant_start_instruction, values, maxBytes);
  return {
    prompt: prompt?.text ?? null,
    start_instruction: start?.text ?? null,
    missing: [...new Set([...(prompt?.missing ?? []), ...(start?.missing ?? [])])],
    exceeded: [
      ...(prompt?.exceeded ? (['assistant_prompt'] as const) : []),
      ...(start?.exceeded ? (['assistant_start_instruction'] as const) : []),
    ],
  };
}

function optional(template: string | null | undefined, values: TemplateValues, maxBytes: number) {
  return template === null || template === undefined
    ? null
    : renderTemplate(template, values, maxBytes);
}
