import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { ERROR_CLASSES } from './error-class';
import { ROOM_NAME_MAX_LENGTH } from './limits';
import type { QueueName } from './queues';

/** A JSON Schema (draft-07) object, as shipped in `packages/client/schemas/*.schema.json`. */
export type JsonSchema = Record<string, unknown> & {
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
};

/** `room_name` of every call job's data: the call's real-time room, as the activity log keeps it. */
export const ROOM_NAME_SCHEMA = {
  type: 'string',
  minLength: 1,
  maxLength: ROOM_NAME_MAX_LENGTH,
  pattern: '\\S',
  description: 'Real-time room name of the call.',
} as const;

/** `traceparent` of every call job's data: never a reason to fail the job. */
export const TRACEPARENT_SCHEMA = {
  type: 'string',
  description:
    "W3C traceparent of the caller's trace (00-<trace id>-<span id>-<flags>). Every request the job makes carries the trace id with a new span id; without a valid one a new trace is started.",
} as const;

/** `error_class` of every job result: why it failed, null on success. */
export const ERROR_CLASS_SCHEMA = {
  enum: [...ERROR_CLASSES, null],
  description:
    'Why it failed: timeout, network, http_4xx, auth (401/403), http_5xx, invalid_response, blocked, config or internal; null on success.',
} as const;

/**
 * `assistant_version` of the call-time jobs: a published version, or null for the working copy;
 * left out, the version the room's inbound lookup resolved.
 */
export const ASSISTANT_VERSION_SCHEMA = {
  type: ['integer', 'null'],
  minimum: 1,
  maximum: 2_147_483_647,
  description:
    "The published version to run, or null for the working copy; left out: the version the room's inbound lookup resolved (remembered 24 h), else the working copy.",
} as const;

export type Parsed<T> = { ok: true; data: T } | { ok: false; error: string };

export interface JobContractSpec {
  /** The queue name, a public contract. */
  queue: QueueName;
  /**
   * The contract's version, raised by a change a producer could notice (a field removed,
   * renamed or newly required, a narrower rule); the shipped schema's `$id` carries it.
   */
  version: number;
  /** One line on what the queue does, for the shipped schema file. */
  description: string;
  /** Job data the producer adds. Top-level properties not listed here are dropped. */
  data: JsonSchema;
  /** The job's return value. */
  result: JsonSchema;
  /**
   * How a failing field is worded, when the default wording derived from the failed keyword
   * (`room_name must be a string`) would not tell a producer what is expected.
   */
  messages?: Record<string, string>;
  /** Optional fields whose `null` is a value (e.g. `assistant_version`: the working copy), kept as sent. */
  nullValued?: string[];
}

/** The `$id` of a queue's shipped schema: its name and contract version. */
export function contractSchemaId(queue: QueueName, version: number): string {
  return `urn:voice-assistant-config:queue:${queue}:v${version}`;
}

// Strict, except that `anyOf: [{required: [a]}, {required: [b]}]` (one of two fields) is allowed.
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false, verbose: true });

/**
 * One queue's contract: the JSON Schemas of its job data and return value, checked at runtime
 * with Ajv. The processor fails a job whose data does not match at once with `parse`'s reason
 * (every problem, each naming its field); producers check the same way before adding.
 */
export class JobContract<D, R> {
  readonly queue: QueueName;
  private readonly validateData: ValidateFunction;
  private readonly validateResult: ValidateFunction;

  constructor(readonly spec: JobContractSpec) {
    this.queue = spec.queue;
    this.validateData = ajv.compile(spec.data);
    this.validateResult = ajv.compile(spec.result);
  }

  /**
   * Checks job data from an untrusted producer. An optional top-level field sent as `null` counts as
   * absent (unless listed in `nullValued`) (producers in other languages send `None`/`nil` for unset options); unknown top-level fields are dropped.
   */
  parse(raw: unknown): Parsed<D> {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
      return { ok: false, error: 'job data must be an object' };
    const known = Object.keys(this.spec.data.properties ?? {});
    const keepsNull = new Set([
      ...(this.spec.data.required ?? []),
      ...(this.spec.nullValued ?? []),
    ]);
    const data: Record<string, unknown> = {};
    for (const key of known) {
      const value = (raw as Record<string, unknown>)[key];
      if (value !== undefined && (value !== null || keepsNull.has(key))) data[key] = value;
    }
    const problems: string[] = [];
    const illFormed = findIllFormedText(data);
    if (illFormed !== null)
      problems.push(
        `${illFormed.toWellFormed() || 'job data'} must be well-formed Unicode text (it holds a lone surrogate)`,
      );
    if (!this.validateData(data)) problems.push(...this.describe(this.validateData.errors ?? []));
    if (problems.length) return { ok: false, error: [...new Set(problems)].join('; ') };
    return { ok: true, data: data as D };
  }

  /** Checks a return value against the declared result schema (used by tests and cautious producers). */
  checkResult(value: unknown): Parsed<R> {
    if (this.validateResult(value)) return { ok: true, data: value as R };
    return { ok: false, error: this.describe(this.validateResult.errors ?? []).join('; ') };
  }

  /** The document shipped as `packages/client/schemas/<queue>.schema.json`: the job data, with the result under `definitions`. */
  jsonSchemaDocument(): Record<string, unknown> {
    return {
      $schema: 'http://json-schema.org/draft-07/schema#',
      $id: contractSchemaId(this.queue, this.spec.version),
      title: `${this.queue} job data`,
      description: `${this.spec.description} Every string must be well-formed Unicode (no lone surrogates).`,
      ...this.spec.data,
      definitions: { result: { title: `${this.queue} return value`, ...this.spec.result } },
    };
  }

  private describe(errors: ErrorObject[]): string[] {
    const messages = this.spec.messages ?? {};
    const out: string[] = [];
    for (const error of errors) {
      const field = fieldOf(error);
      if (error.keyword === 'anyOf') {
        const options = (error.parentSchema as { anyOf?: JsonSchema[] }).anyOf ?? [];
        const names = options.flatMap((option) => option.required ?? []);
        if (names.length) out.push(`one of ${names.join(' or ')} is required`);
        continue;
      }
      // A `required` inside an `anyOf` is reported by the `anyOf` above.
      if (error.keyword === 'required' && error.schemaPath.includes('/anyOf/')) continue;
      const root = field.split(/[.[]/)[0];
      if (messages[root]) out.push(`${root} ${messages[root]}`);
      else out.push(`${field || 'job data'} ${wording(error)}`);
    }
    return out;
  }
}

function fieldOf(error: ErrorObject): string {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part}`))
    .join('')
    .replace(/^\./, '');
  if (error.keyword === 'required') {
    const missing = (error.params as { missingProperty: string }).missingProperty;
    return path ? `${path}.${missing}` : missing;
  }
  return path;
}

const article = (type: string) => (/^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`);

function wording(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'type': {
      const types = String(params.type).split(',');
      return `must be ${types
        .filter((t) => t !== 'null')
        .map(article)
        .join(' or ')}`;
    }
    case 'minLength':
      return params.limit === 1
        ? 'must be a non-empty string'
        : `must be at least ${String(params.limit)} characters`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters`;
    case 'enum':
      return `must be one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    default:
      return error.message ?? 'is invalid';
  }
}

/**
 * The path of the first string (value or key) that is not well-formed UTF-16, e.g. a lone
 * surrogate such as `"\ud800"`: `''` for the top level, `payload.notes[2]` inside. Such text
 * cannot be stored in a MySQL JSON column nor sent as UTF-8, so it is refused at the door.
 */
export function findIllFormedText(value: unknown): string | null {
  // Iterative: job data may be nested deeper than the call stack allows.
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length) {
    const [current, path] = stack.pop()!;
    if (typeof current === 'string') {
      if (!current.isWellFormed()) return path;
    } else if (Array.isArray(current)) {
      for (let i = current.length - 1; i >= 0; i--) stack.push([current[i], `${path}[${i}]`]);
    } else if (current !== null && typeof current === 'object') {
      const entries = Object.entries(current as Record<string, unknown>);
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, inner] = entries[i];
        const at = path ? `${path}.${key}` : key;
        if (!key.isWellFormed()) return at;
        stack.push([inner, at]);
      }
    }
  }
  return null;
}
