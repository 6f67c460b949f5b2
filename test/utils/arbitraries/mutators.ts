import fc from 'fast-check';
import { type Body, isPlainObject } from './helpers';
import { plainWord } from './text';
import { safeJsonValue } from './tool';

// ---------------------------------------------------------------------------------------------
// Mutators
// ---------------------------------------------------------------------------------------------

/** Path of a field inside a body; numbers index arrays. */
export type Path = (string | number)[];

/** How the API names a path in `data.errors[].field`: `a.b`, `a[0].b`. */
export function fieldName(path: Path): string {
  return path.reduce<string>(
    (out, part) => (typeof part === 'number' ? `${out}[${part}]` : out ? `${out}.${part}` : part),
    '',
  );
}

export type Kind =
  'string' | 'boolean' | 'number' | 'integer' | 'object' | 'array' | 'uuid' | 'enum';

export interface FieldSpec {
  path: Path;
  kind: Kind;
  /** Longest valid string: a huge-string mutation goes over it. */
  max?: number;
  /** The allowed values of an `enum` field. */
  values?: readonly string[];
}

/** A rule a mutator breaks: set `value` at `path` (undefined deletes it). */
export interface Mutation {
  /** What the mutator did, for the counterexample report. */
  label: string;
  path: Path;
  value: unknown;
  /** The path `data.errors[].field` must name (default `path`). */
  expectField?: Path;
  /** Allowed statuses (default [400]). */
  statuses?: readonly number[];
  /** Insert a new key first rather than last (key order matters to some transformers). */
  first?: boolean;
}

/** Describes a route's body for the generic mutators. */
export interface BodySpec {
  /** Fields present in `body` or settable on it, with their JSON kind. */
  fields(body: Body): FieldSpec[];
  /** Fields `body` cannot do without. */
  required(body: Body): Path[];
  /** Objects in `body` (path [] = top level) that reject unknown keys. */
  closedObjects(body: Body): Path[];
  /** Out-of-range values, each invalid whatever the rest of the body holds. */
  outOfRange(body: Body): Mutation[];
  /** Update bodies: leaving a required field out is fine, only `null` breaks it. */
  requiredNullOnly?: boolean;
}

/** Deep nesting: objects and arrays 6-12 levels down, with junk at the bottom. */
export const nestedJunk: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 6, max: 12 }), safeJsonValue({ maxDepth: 1 }), fc.boolean())
  .map(([depth, leaf, asArray]) => {
    let value: unknown = leaf;
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { [`k${i}`]: value };
    return asArray ? { deep: value } : value;
  });

/**
 * Text that is not well-formed Unicode: a lone high or low surrogate, alone, around other text, or
 * a pair in the wrong order. Sent as JSON it becomes the escape `\ud800`, which parses back to the
 * lone surrogate; the API refuses it (400 naming the field) before anything is stored.
 */
export const loneSurrogateText: fc.Arbitrary<string> = fc
  .tuple(
    fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff', '\ude00\ud83d'),
    fc.string({ maxLength: 6 }),
    fc.constantFrom<'before' | 'after' | 'alone'>('before', 'after', 'alone'),
  )
  .map(([bad, text, where]) =>
    where === 'alone' ? bad : where === 'before' ? bad + text : text + bad,
  );

/** Deeper than the body limit (64 levels): objects or arrays 65-400 levels down. */
export const tooDeep: fc.Arbitrary<unknown> = fc
  .tuple(fc.integer({ min: 65, max: 400 }), fc.boolean())
  .map(([depth, asArray]) => {
    let value: unknown = 'bottom';
    for (let i = 0; i < depth; i++) value = asArray ? [value] : { k: value };
    return value;
  });

const stringish = fc.oneof(
  fc.string({ maxLength: 10 }),
  fc.constantFrom('', '5', 'true', 'null', '{}'),
);

/** Values of any JSON kind but `kind` (never null: null is optional-friendly on some fields). */
export function wrongValue(kind: Kind): fc.Arbitrary<unknown> {
  const num = fc.oneof(
    fc.integer(),
    fc.double({ noNaN: true, noDefaultInfinity: true }),
    fc.constantFrom(0, -1, 1e308),
  );
  const bool = fc.boolean();
  const arr = fc.oneof(
    fc.constant([]),
    fc.array(safeJsonValue({ maxDepth: 1 }), { minLength: 1, maxLength: 3 }),
  );
  const obj = fc.oneof(
    fc.constant({}),
    nestedJunk.filter((v) => !Array.isArray(v) && typeof v === 'object' && v !== null),
    fc.dictionary(fc.string({ maxLength: 6 }), safeJsonValue({ maxDepth: 1 }), {
      minKeys: 1,
      maxKeys: 3,
    }),
  );
  switch (kind) {
    case 'string':
    case 'enum':
      return fc.oneof(num, bool, arr, obj);
    case 'uuid':
      return fc.oneof(
        num,
        bool,
        arr,
        obj,
        fc.constantFrom('not-a-uuid', '', '123', 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz'),
      );
    case 'boolean':
      return fc.oneof(num, arr, obj, fc.constantFrom('true', 'false', '1', ''));
    case 'number':
      return fc.oneof(bool, arr, obj, fc.constantFrom('5', '10', '1e3', ''));
    case 'integer':
      return fc.oneof(
        bool,
        arr,
        obj,
        fc.constantFrom('5', '2', ''),
        fc.constantFrom(2.5, 0.1, 3.0000001),
      );
    case 'object':
      return fc.oneof(num, bool, arr, stringish);
    case 'array':
      return fc.oneof(num, bool, stringish, fc.constant({}), fc.constant({ 0: 'a' }));
  }
}

/**
 * Names of `Object.prototype` members: refused anywhere in a body as reserved field names (the
 * body parser's check, since class-transformer would skip them before the whitelist sees them).
 */
export const PROTOTYPE_KEYS = [
  'constructor',
  'toString',
  'hasOwnProperty',
  'valueOf',
  '__proto__',
  '__defineGetter__',
  'isPrototypeOf',
];

/** Key names no DTO has: random, look-alikes of real fields, unicode, dots and brackets, numeric, prototype members. */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_KEYS, '0', '42') },
  { weight: 3, arbitrary: plainWord(1, 20).map((w) => `x_${w}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'Assistant_Name',
      'user_id',
      'id',
      'created_at',
      'a.b',
      'a[0]',
      '😀',
      'x\u0000y',
      ' ',
      'TOOL_NAME',
    ),
  },
);

/**
 * Strings over a limit of `max` characters: just over (+1, emoji or ASCII), a few times over, or
 * about 900 KB (under the 1 MB body cap, so the answer must be a 400 naming the field, not a 413).
 */
export function overLimit(max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.constant('a'.repeat(max + 1)) },
    { weight: 3, arbitrary: fc.constant('😀'.repeat(max + 1)) },
    {
      weight: 3,
      arbitrary: fc.integer({ min: max + 1, max: max * 4 + 10 }).map((n) => 'h'.repeat(n)),
    },
    { weight: 1, arbitrary: fc.constantFrom('😀'.repeat(225_000), 'x'.repeat(900_000)) },
  );
}

function get(body: unknown, path: Path): unknown {
  let cur = body;
  for (const part of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string | number, unknown>)[part];
  }
  return cur;
}

/** A deep copy of `body` with `value` set at `path` (or the key removed when `value` is undefined). */
export function setPath(body: Body, path: Path, value: unknown): Body {
  const copy = structuredClone(body);
  let cur: Record<string | number, unknown> = copy;
  for (const part of path.slice(0, -1)) {
    const next = cur[part];
    if (next === null || typeof next !== 'object') cur[part] = {};
    cur = cur[part] as Record<string | number, unknown>;
  }
  const last = path[path.length - 1];
  if (value === undefined) delete cur[last];
  else if (last === '__proto__' || last === 'constructor')
    Object.defineProperty(cur, last, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  else cur[last] = value;
  return copy;
}

/**
 * Every kind of breakage, as one arbitrary over a spec: wrong types, missing required fields,
 * unknown fields (top level and nested), out-of-range values, huge strings, unicode where only a
 * fixed vocabulary is allowed, lone surrogates in text, nested junk, nesting deeper than the body
 * limit, arrays where objects are expected, null in required places. Each result is invalid
 * whatever else the body holds.
 */
export function mutationArb(spec: BodySpec, body: Body): fc.Arbitrary<Mutation> {
  const fields = spec.fields(body);
  const textFields = fields.filter((f) => f.kind === 'string' || f.kind === 'enum');
  const enumFields = fields.filter((f) => f.kind === 'enum' || f.kind === 'uuid');
  const required = spec.required(body);
  const objects = spec
    .closedObjects(body)
    .filter((p) => p.length === 0 || isPlainObject(get(body, p)));
  const objectFields = fields.filter((f) => f.kind === 'object');
  const range = spec.outOfRange(body);
  const options: fc.Arbitrary<Mutation>[] = [];

  if (fields.length > 0) {
    options.push(
      fc.constantFrom(...fields).chain((f) =>
        wrongValue(f.kind).map((value) => ({
          label: `wrong type (${f.kind} expected)`,
          path: f.path,
          value,
        })),
      ),
    );
  }
  if (required.length > 0) {
    options.push(
      fc
        .constantFrom(...required)
        .chain((path) =>
          spec.requiredNullOnly
            ? fc.constant<Mutation>({ label: 'null in a required field', path, value: null })
            : fc.constantFrom<Mutation>(
                { label: 'missing required field', path, value: undefined },
                { label: 'null in a required field', path, value: null },
              ),
        ),
    );
  }
  if (objects.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...objects),
          unknownKey,
          safeJsonValue({ maxDepth: 2 }),
          fc.boolean(),
        )
        .map(([obj, key, value, first]) => ({
          label: obj.length === 0 ? 'unknown top-level field' : 'unknown nested field',
          path: [...obj, key],
          // an unknown key is reported however harmless its value; `null` included
          value: value === undefined ? 1 : value,
          expectField: [...obj, key],
          first,
        })),
    );
  }
  if (range.length > 0) options.push(fc.constantFrom(...range));
  const huge = fields.filter((f) => f.kind === 'string' && f.max !== undefined);
  if (huge.length > 0) {
    options.push(
      fc.constantFrom(...huge).chain((f) =>
        overLimit(f.max!).map((value) => ({
          label: `string over ${f.max} characters`,
          path: f.path,
          value,
        })),
      ),
    );
  }
  if (enumFields.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...enumFields),
          fc.constantFrom('\u0000', '😀', '\u202e', ' ', '\u200b', 'X'),
          fc.boolean(),
        )
        .map(([f, junk, before]) => {
          const current = get(body, f.path);
          const base =
            typeof current === 'string'
              ? current
              : (f.values?.[0] ?? '00000000-0000-4000-8000-000000000000');
          return {
            label: 'unicode in a fixed vocabulary',
            path: f.path,
            value: before ? junk + base : base + junk,
          };
        }),
    );
  }
  if (objectFields.length > 0) {
    options.push(
      fc
        .tuple(
          fc.constantFrom(...objectFields),
          fc.array(safeJsonValue({ maxDepth: 1 }), { maxLength: 3 }),
        )
        .map(([f, value]) => ({
          label: 'array where an object is expected',
          path: f.path,
          value,
        })),
    );
  }
  if (textFields.length > 0) {
    options.push(
      fc
        .tuple(fc.constantFrom(...textFields), nestedJunk)
        .map(([f, value]) => ({ label: 'nested junk in a text field', path: f.path, value })),
      fc.tuple(fc.constantFrom(...textFields), loneSurrogateText).map(([f, value]) => ({
        label: 'lone surrogate in a text field',
        path: f.path,
        value,
      })),
    );
  }
  if (fields.length > 0) {
    // The body check names the path where the limit is crossed, inside the field.
    options.push(
      fc.tuple(fc.constantFrom(...fields), tooDeep).map(([f, value]) => ({
        label: 'nested deeper than 64 levels',
        path: f.path,
        value,
      })),
    );
  }
  return fc.oneof(...options);
}

export function applyMutation(body: Body, mutation: Mutation): Body {
  const out = setPath(body, mutation.path, mutation.value);
  if (!mutation.first) return out;
  // Re-create the parent with the new key first.
  const parentPath = mutation.path.slice(0, -1);
  const key = mutation.path[mutation.path.length - 1] as string;
  const parent = parentPath.length === 0 ? out : get(out, parentPath);
  if (!isPlainObject(parent)) return out;
  const reordered: Body = {};
  Object.defineProperty(reordered, key, {
    value: parent[key],
    enumerable: true,
    writable: true,
    configurable: true,
  });
  for (const [k, v] of Object.entries(parent)) if (k !== key) reordered[k] = v;
  return parentPath.length === 0 ? reordered : setPath(out, parentPath, reordered);
}

/**
 * Chaos: replaces one random leaf or branch of the body with `null`, junk, a random JSON value,
 * text with a lone surrogate or nesting deeper than the body limit.
 * The result may happen to be valid; properties over it check invariants only (no 500, the
 * envelope, no half-written record).
 */
export function chaosArb(body: Body): fc.Arbitrary<Body> {
  const paths: Path[] = [];
  const walk = (value: unknown, path: Path) => {
    if (path.length > 0) paths.push(path);
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...path, i]));
    else if (isPlainObject(value))
      for (const [k, v] of Object.entries(value)) walk(v, [...path, k]);
  };
  walk(body, []);
  if (paths.length === 0) return fc.constant(body);
  return fc
    .array(
      fc.tuple(
        fc.constantFrom(...paths),
        fc.oneof(
          fc.constant(null),
          safeJsonValue({ maxDepth: 2 }),
          nestedJunk,
          fc.constant(undefined),
          loneSurrogateText,
          tooDeep,
        ),
      ),
      { minLength: 1, maxLength: 4 },
    )
    .map((edits) => edits.reduce<Body>((b, [path, value]) => setPath(b, path, value), body));
}
