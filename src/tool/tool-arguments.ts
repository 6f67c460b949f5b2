import type { ToolParameter } from './tool.types';

export type ArgumentsCheck =
  | { ok: true; arguments: Record<string, unknown> }
  | { ok: false; problems: string[]; error: string };

/** Longest argument list named in an error; the model only needs to see what it can fix. */
const MAX_PROBLEMS = 20;

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && !Number.isFinite(value)) return 'non-finite number';
  return typeof value;
}

function matchesType(type: ToolParameter['type'], value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'array':
      return Array.isArray(value);
  }
}

/**
 * The call's arguments as an object. Language models commonly hand arguments over as the JSON
 * text of an object (OpenAI's `function.arguments`), so a string holding a JSON object is accepted;
 * no arguments at all (`undefined`/`null`) is an empty object.
 */
export function argumentsObject(raw: unknown): Record<string, unknown> | null {
  if (raw === undefined || raw === null) return {};
  let value: unknown = raw;
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : null;
}

/**
 * Checks a call's arguments against the tool's parameters before anything is sent: every required
 * argument present, each of its declared JSON type (a number must be finite, an object must not be
 * an array), string values within the parameter's `enum`, and no argument the tool does not declare.
 * An optional argument sent as `null` counts as not sent and is left out of the result. Messages are
 * written for the language model that made the call, so it can correct itself and call again.
 */
export function validateToolArguments(
  parameters: readonly ToolParameter[],
  raw: unknown,
): ArgumentsCheck {
  const args = argumentsObject(raw);
  if (args === null) {
    const error = `Invalid arguments: expected a JSON object of named arguments, got ${describeType(raw)}.`;
    return { ok: false, problems: [error], error };
  }
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  const declared = new Set(parameters.map((p) => p.name));

  for (const parameter of parameters) {
    const present = Object.prototype.hasOwnProperty.call(args, parameter.name);
    const value = present ? args[parameter.name] : undefined;
    const required = parameter.required !== false;
    if (value === undefined || (value === null && !required)) {
      if (required)
        problems.push(`missing required argument "${parameter.name}" (${parameter.type})`);
      continue;
    }
    if (!matchesType(parameter.type, value)) {
      problems.push(
        `argument "${parameter.name}" must be ${article(parameter.type)}, got ${describeType(value)}`,
      );
      continue;
    }
    if (
      parameter.type === 'string' &&
      parameter.enum?.length &&
      !parameter.enum.includes(value as string)
    ) {
      problems.push(
        `argument "${parameter.name}" must be one of ${parameter.enum.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`,
      );
      continue;
    }
    out[parameter.name] = value;
  }

  const unknown = Object.keys(args).filter((name) => !declared.has(name));
  if (unknown.length) {
    const expected = parameters.length
      ? `; the tool accepts: ${[...declared].join(', ')}`
      : '; the tool takes no arguments';
    problems.push(
      `unknown argument${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n.slice(0, 64)}"`).join(', ')}${expected}`,
    );
  }

  if (!problems.length) return { ok: true, arguments: out };
  const shown = problems.slice(0, MAX_PROBLEMS);
  const more =
    problems.length > shown.length ? ` (and ${problems.length - shown.length} more)` : '';
  return { ok: false, problems, error: `Invalid arguments: ${shown.join('; ')}${more}.` };
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}
