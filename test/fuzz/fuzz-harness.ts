/** Shared by the fuzz suites: the error envelope, the field it names, never a 500; route calls and update cases per resource. */
import fc from 'fast-check';
import type { Response, Test } from 'supertest';
import type { EntityTarget } from 'typeorm';
import {
  applyMutation,
  chaosArb,
  fieldName,
  fuzzParams,
  mutationArb,
  type Body,
  type BodySpec,
  type Mutation,
  type Path,
} from '../utils/arbitraries';
import { createTestApp, type TestContext, type TestUser } from '../utils/create-test-app';

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

interface ResourceSpec {
  /** The entity whose rows a refused create must not add. */
  entity: EntityTarget<{ user_id: string }>;
  /** The create (or assign) route. */
  createPath: string;
  /** The prefix of `details/:id` and `update/:id`. */
  base: string;
  /** The id field of the create response's `data`. */
  idKey: string;
}

export interface ResourceRoutes {
  /** The user's rows in the database (not through the API, so a half-written row shows). */
  count(): Promise<number>;
  create(body: unknown): Test;
  details(id: string): Test;
  update(id: string, body: unknown): Test;
  /** Creates from a body that must be accepted, and returns the new id. */
  createValid(body: Body): Promise<string>;

  /**
   * A valid create body → 200 envelope, then `checkCreated` on the response, and exactly one row
   * more.
   */
  validCreateStored(
    checkCreated: (res: Response, body: Body) => Promise<void>,
  ): (body: Body) => Promise<void>;
  /** A mutated create body → 4xx envelope naming the field, and no row is written. */
  mutatedCreateRefused(c: Mutated): Promise<void>;
  /** A chaos create body → never a 5xx; a row only on 200, and it reads back. */
  chaosCreateSafe(body: Body): Promise<void>;
  /** A valid patch of a stored record → 200; the response and a fresh read show `expectedAfter`. */
  validUpdateMerged(
    expectedAfter: (before: Body, patch: Body) => Body,
  ): (c: Stored<Body>) => Promise<void>;
  /** A mutated patch → 4xx envelope naming the field, and the record is unchanged. */
  mutatedUpdateRefused(c: Stored<Mutated>): Promise<void>;
  /** A chaos patch → never a 5xx; a refused one leaves the record unchanged. */
  chaosUpdateSafe(c: Stored<Body>): Promise<void>;
  /**
   * One UpdateCase: a mutated patch is refused, a chaos one is never a 5xx, a valid one is 200
   * and then checked by `checkValid`; whatever is not 200 leaves the record unchanged.
   */
  updateCaseHolds(
    checkValid: (res: Response, before: Body, patch: Body, id: string) => Promise<void>,
  ): (c: UpdateCase) => Promise<void>;
}

export interface FuzzApp {
  ctx: TestContext;
  user: TestUser;
}

/**
 * Registers the hooks of a fuzz suite: the app and a user, handed to `started` before the first
 * property; returns them as they are at the time of the call.
 */
export function fuzzApp(started: (app: FuzzApp) => void = () => undefined): () => FuzzApp {
  let app: FuzzApp;
  beforeAll(async () => {
    const ctx = await createTestApp();
    app = { ctx, user: await ctx.newUser() };
    started(app);
  });
  afterAll(() => app.ctx.close());
  return () => app;
}

/** A body and a mutation of it the API must refuse. */
export interface Mutated {
  body: Body;
  mutation: Mutation;
}

/** A record to store first (`created`), and what to do to it (`x`). */
export interface Stored<T> {
  created: Body;
  x: T;
}

/** Checks `check` on the run's number of cases of `arb`. */
export async function holds<T>(
  arb: fc.Arbitrary<T>,
  check: (value: T) => Promise<void>,
): Promise<void> {
  await fc.assert(fc.asyncProperty(arb, check), fuzzParams());
}

/** Each body of `arb` with a mutation the API must refuse. */
export const mutatedArb = (arb: fc.Arbitrary<Body>, spec: BodySpec): fc.Arbitrary<Mutated> =>
  arb.chain((body) => mutationArb(spec, body).map((mutation) => ({ body, mutation })));

/** A record per case from `createArb`, and what `f` makes for it. */
export const storedArb = <T>(
  createArb: fc.Arbitrary<Body>,
  f: (created: Body) => fc.Arbitrary<T>,
): fc.Arbitrary<Stored<T>> => createArb.chain((created) => f(created).map((x) => ({ created, x })));

/**
 * The create / details / update calls of one resource for the fuzz properties. `current` is read
 * on every call because the app and the user are made in `beforeAll`.
 */
export function resourceRoutes(
  current: () => { ctx: TestContext; user: TestUser },
  spec: ResourceSpec,
): ResourceRoutes {
  const create = (body: unknown) => {
    const { ctx, user } = current();
    return ctx
      .http()
      .post(spec.createPath)
      .set(user.auth)
      .send(body as object);
  };
  const count = () => {
    const { ctx, user } = current();
    return ctx.dataSource.getRepository(spec.entity).count({ where: { user_id: user.userId } });
  };
  const details = (id: string) => {
    const { ctx, user } = current();
    return ctx.http().get(`${spec.base}/details/${id}`).set(user.auth);
  };
  const update = (id: string, body: unknown) => {
    const { ctx, user } = current();
    return ctx
      .http()
      .patch(`${spec.base}/update/${id}`)
      .set(user.auth)
      .send(body as object);
  };
  const createValid = async (body: Body) => {
    const res = await create(body);
    if (res.status !== 200)
      throw new Error(`valid ${spec.createPath} body refused: ${describeResponse(res)}`);
    return (res.body as { data: Record<string, string> }).data[spec.idKey];
  };
  const read = async (id: string) => (await details(id)).body.data as Body;
  const expectValidUpdate = (res: Response) => {
    expectEnvelope(res);
    if (res.status !== 200) throw new Error(`valid patch refused: ${describeResponse(res)}`);
  };

  return {
    count,
    create,
    details,
    update,
    createValid,

    validCreateStored: (checkCreated) => async (body) => {
      const before = await count();
      const res = await create(body);
      expectEnvelope(res);
      if (res.status !== 200) throw new Error(`valid body refused: ${describeResponse(res)}`);
      await checkCreated(res, body);
      expect(await count()).toBe(before + 1);
    },

    async mutatedCreateRefused({ body, mutation }) {
      const before = await count();
      expectRejected(await create(applyMutation(body, mutation)), mutation);
      expect(await count()).toBe(before);
    },

    async chaosCreateSafe(body) {
      const before = await count();
      const res = await create(body);
      expectClientOutcome(res);
      expect(await count()).toBe(before + (res.status === 200 ? 1 : 0));
      if (res.status === 200)
        expect((await details(res.body.data[spec.idKey] as string)).status).toBe(200);
    },

    validUpdateMerged:
      (expectedAfter) =>
      async ({ created, x: patch }) => {
        const id = await createValid(created);
        const before = await read(id);
        const res = await update(id, patch);
        expectValidUpdate(res);
        const expected = expectedAfter(withoutMeta(before), patch);
        expect(withoutMeta(res.body.data)).toEqual(expected);
        expect(withoutMeta(await read(id))).toEqual(expected);
      },

    async mutatedUpdateRefused({ created, x: { body: patch, mutation } }) {
      const id = await createValid(created);
      const before = await read(id);
      expectRejected(await update(id, applyMutation(patch, mutation)), mutation);
      expect(await read(id)).toEqual(before);
    },

    async chaosUpdateSafe({ created, x: patch }) {
      const id = await createValid(created);
      const before = await read(id);
      const res = await update(id, patch);
      expectClientOutcome(res);
      if (res.status !== 200) expect(await read(id)).toEqual(before);
    },

    updateCaseHolds:
      (checkValid) =>
      async ({ created, patch, mutation, chaos }) => {
        const id = await createValid(created);
        const before = await read(id);
        const res = await update(id, mutation ? applyMutation(patch, mutation) : patch);
        if (mutation) expectRejected(res, mutation);
        else if (chaos) expectClientOutcome(res);
        else {
          expectValidUpdate(res);
          await checkValid(res, before, patch, id);
        }
        if (res.status !== 200) expect(await read(id)).toEqual(before);
      },
  };
}

export interface UpdateCase {
  created: Body;
  patch: Body;
  /** Set when the patch was mutated into one the API must refuse. */
  mutation: Mutation | null;
  /** Set when junk was put anywhere in the patch: any client outcome but a 5xx is fine. */
  chaos: boolean;
}

/** A stored record and a patch for it: valid, mutated (must be refused) or chaos (must not 500). */
export function updateCaseArb(
  createArb: fc.Arbitrary<Body>,
  patchArb: fc.Arbitrary<Body>,
  updateSpec: BodySpec,
): fc.Arbitrary<UpdateCase> {
  return fc.tuple(createArb, patchArb).chain(([created, patch]) =>
    fc.oneof(
      fc.constant<UpdateCase>({ created, patch, mutation: null, chaos: false }),
      mutationArb(updateSpec, patch).map((mutation): UpdateCase => ({
        created,
        patch,
        mutation,
        chaos: false,
      })),
      chaosArb(patch).map((p): UpdateCase => ({ created, patch: p, mutation: null, chaos: true })),
    ),
  );
}
