/** Assertions shared by the fuzz suites: the error envelope, the field it names, never a 500. */
import type { Response } from 'supertest';
import { fieldName, type Mutation, type Path } from '../utils/arbitraries';

export interface FieldError {
  field: string;
  message: string;
}

/** Short description of a response for a failure message (bodies may be 900 KB). */
export function describeResponse(res: Response): string {
  const text = JSON.stringify(res.body) ?? String(res.text);
  return `${res.status} ${text.length > 600 ? `${text.slice(0, 600)}…` : text}`;
}

/** Every response is the envelope, and never a 500 (or any 5xx). */
export function expectEnvelope(res: Response): void {
  if (res.status >= 500) throw new Error(`server error: ${describeResponse(res)}`);
  const body = res.body as { success?: unknown; message?: unknown; data?: unknown };
  if (
    typeof body !== 'object' ||
    body === null ||
    typeof body.success !== 'boolean' ||
    typeof body.message !== 'string' ||
    !('data' in body)
  ) {
    throw new Error(`not an envelope: ${describeResponse(res)}`);
  }
  if (body.success !== res.status < 300)
    throw new Error(`success flag does not match the status: ${describeResponse(res)}`);
}

/** True when `field` names `path` or something inside it. */
export function namesPath(field: string, path: Path): boolean {
  const name = fieldName(path);
  return field === name || field.startsWith(`${name}.`) || field.startsWith(`${name}[`);
}

/**
 * A rejected request: a 4xx envelope (400 unless the mutation says otherwise) with
 * `success: false`; on 400 a non-empty `data.errors` of `{field, message}` naming `path`.
 */
export function expectRejected(
  res: Response,
  mutation: Pick<Mutation, 'path' | 'expectField' | 'statuses' | 'label'>,
): void {
  expectEnvelope(res);
  const allowed = mutation.statuses ?? [400];
  if (!allowed.includes(res.status)) {
    throw new Error(
      `${mutation.label} at ${fieldName(mutation.path)}: expected ${allowed.join('/')}, got ${describeResponse(res)}`,
    );
  }
  if (res.status !== 400) return;
  const errors = (res.body as { data?: { errors?: unknown } }).data?.errors;
  if (!Array.isArray(errors) || errors.length === 0)
    throw new Error(`400 without data.errors: ${describeResponse(res)}`);
  for (const e of errors as FieldError[]) {
    if (typeof e?.field !== 'string' || typeof e?.message !== 'string' || e.message === '') {
      throw new Error(`malformed error entry ${JSON.stringify(e)}`);
    }
  }
  const expected = mutation.expectField ?? mutation.path;
  // An `each` rule on an array reports the array itself for a bad element.
  const parent =
    typeof expected[expected.length - 1] === 'number' ? fieldName(expected.slice(0, -1)) : null;
  if (!(errors as FieldError[]).some((e) => namesPath(e.field, expected) || e.field === parent)) {
    throw new Error(
      `${mutation.label}: expected an error naming ${fieldName(expected)}, got ${JSON.stringify((errors as FieldError[]).map((e) => e.field))}`,
    );
  }
}

/** Statuses a request with arbitrary input may get; anything else (a 5xx above all) fails. */
export const CLIENT_OUTCOMES = [200, 400, 404, 409, 413, 415, 422];

export function expectClientOutcome(res: Response): void {
  expectEnvelope(res);
  if (!CLIENT_OUTCOMES.includes(res.status))
    throw new Error(`unexpected status: ${describeResponse(res)}`);
  if (res.status === 400) {
    const errors = (res.body as { data?: { errors?: unknown } }).data?.errors;
    if (errors !== undefined && (!Array.isArray(errors) || errors.length === 0)) {
      throw new Error(`400 with malformed data.errors: ${describeResponse(res)}`);
    }
  }
}

/** A record read back without its id and timestamps. */
export function withoutMeta(
  record: Record<string, unknown>,
  ...extra: string[]
): Record<string, unknown> {
  const out = { ...record };
  for (const key of ['created_at', 'updated_at', ...extra]) delete out[key];
  return out;
}
