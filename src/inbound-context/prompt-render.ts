/** `{{context.<path>}}` with optional whitespace inside the braces; the path has no spaces or braces. */
const PLACEHOLDER = /\{\{\s*context\.([^\s{}]+)\s*\}\}/g;

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
 * Replaces every `{{context.<key>}}` in `template`. Without a context (failed or skipped lookup)
 * every such placeholder becomes empty text, so the prompt never shows raw template syntax.
 * Other `{{...}}` placeholders are left alone.
 */
export function renderContextTemplate(
  template: string,
  context: Record<string, unknown> | null | undefined,
): string {
  return template.replace(PLACEHOLDER, (_, path: string) =>
    formatContextValue(resolveContextPath(context, path)),
  );
}

export function renderOptional(
  template: string | null | undefined,
  context: Record<string, unknown> | null | undefined,
): string | null {
  return template === null || template === undefined
    ? null
    : renderContextTemplate(template, context);
}
