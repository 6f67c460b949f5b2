/**
 * Every e2e response is checked against the OpenAPI document the app serves: its status must be
 * documented for the route, and its JSON body must validate against the documented schema. The
 * server side records which route template answered each request (by its `X-Request-Id`); the
 * client side (the supertest wrapper in create-test-app) validates the response when the test
 * awaits it, so a response that disagrees with the document fails the very request that got it.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import Ajv, { type ValidateFunction } from 'ajv';
import type { Response } from 'supertest';
import { buildOpenApiDocument } from '../../src/bootstrap/openapi';

type OpenApiDocument = ReturnType<typeof buildOpenApiDocument>;

interface AnsweredBy {
  method: string;
  /** The Express route template (`/assistant/details/:assistant_id`). */
  route: string;
  /** The parsed JSON body, when the route read one. */
  body: unknown;
}

type RoutedRequest = IncomingMessage & {
  route?: { path?: unknown };
  baseUrl?: string;
  body?: unknown;
};

/** `/assistant/details/:assistant_id` → `/assistant/details/{assistant_id}`. */
export function toOpenApiPath(route: string): string {
  return route.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

export class OpenApiConformance {
  private readonly answered = new Map<string, AnsweredBy>();
  /** Responses checked against a documented operation so far. */
  checked = 0;
  private readonly validators = new Map<string, ValidateFunction | null>();
  private readonly ajv = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    discriminator: true,
  });

  private constructor(private readonly document: OpenApiDocument) {}

  /** Builds the app's document and starts recording which route answered each request. */
  static attach(
    app: INestApplication,
    document: OpenApiDocument = buildOpenApiDocument(app),
  ): OpenApiConformance {
    const conformance = new OpenApiConformance(document);
    const server = app.getHttpServer() as Server;
    server.prependListener('request', (req: RoutedRequest, res: ServerResponse) =>
      conformance.record(req, res),
    );
    return conformance;
  }

  private record(req: RoutedRequest, res: ServerResponse): void {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    // Patched per response so the route is known before the last byte leaves: the client cannot
    // see the response before it is recorded.
    res.end = ((...args: unknown[]) => {
      const id = res.getHeader('x-request-id');
      const path = req.route?.path;
      if (typeof id === 'string' && typeof path === 'string') {
        this.answered.set(id, {
          method: (req.method ?? 'GET').toLowerCase(),
          route: `${req.baseUrl ?? ''}${path}`,
          body: req.body,
        });
      }
      return end(...args);
    }) as ServerResponse['end'];
  }

  /**
   * Problems of one response against the document; empty when it conforms, or when no documented
   * route answered it (unknown paths, test-only controllers, the documents themselves).
   */
  check(res: Pick<Response, 'status' | 'headers' | 'body' | 'type'>): string[] {
    const id = res.headers['x-request-id'] as string | undefined;
    const answered = id ? this.answered.get(id) : undefined;
    if (!answered) return [];
    this.answered.delete(id!);
    const path = toOpenApiPath(answered.route);
    const operation = this.document.paths[path]?.[answered.method as 'get'];
    if (!operation) return [];
    this.checked += 1;
    const where = `${answered.method.toUpperCase()} ${path} → ${res.status}`;
    const responses = operation.responses as Record<
      string,
      { content?: Record<string, { schema?: object }> }
    >;
    const documented =
      responses[String(res.status)] ?? responses[`${String(res.status)[0]}XX`] ?? responses.default;
    if (!documented)
      return [`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`];
    const problems: string[] = [];
    const schema = documented.content?.['application/json']?.schema;
    if (schema && res.type?.includes('json')) {
      const validate = this.validator(`${path} ${answered.method} ${res.status}`, schema);
      if (validate && !validate(res.body)) problems.push(...describe(where, 'body', validate));
    }
    // A body the API accepted must be one the document allows (nullability included).
    const requestSchema = (
      operation.requestBody as { content?: Record<string, { schema?: object }> } | undefined
    )?.content?.['application/json']?.schema;
    if (requestSchema && res.status < 300 && answered.body !== undefined) {
      const validate = this.validator(`${path} ${answered.method} request`, requestSchema);
      if (validate && !validate(answered.body))
        problems.push(...describe(`${where} accepted a request that`, 'request body', validate));
    }
    return problems;
  }

  private validator(key: string, schema: object): ValidateFunction | null {
    if (!this.validators.has(key)) {
      // `#/components/...` references resolve against the root of the compiled schema.
      this.validators.set(
        key,
        this.ajv.compile(
          asJsonSchema({ ...schema, components: this.document.components }) as object,
        ),
      );
    }
    return this.validators.get(key) ?? null;
  }
}

/**
 * OpenAPI 3.0 → JSON Schema for Ajv, with OpenAPI 3.0.3's strict reading of `nullable` (the one
 * Prism and other strict validators apply): `nullable: true` adds null to the `type` beside it and
 * nothing else. An `enum` without null, an `allOf`/`oneOf` of `$ref`s, or a schema without a
 * `type` still refuses null, whatever `nullable` says.
 */
export function asJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(asJsonSchema);
  if (schema === null || typeof schema !== 'object') return schema;
  const { nullable, ...rest } = schema as Record<string, unknown>;
  const converted = Object.fromEntries(
    Object.entries(rest).map(([key, value]) => [key, asJsonSchema(value)]),
  );
  // OpenAPI 3.0's boolean exclusiveMinimum/Maximum → JSON Schema's numeric form.
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof converted[flag] !== 'boolean') continue;
    if (converted[flag] && typeof converted[bound] === 'number') {
      converted[flag] = converted[bound];
      delete converted[bound];
    } else delete converted[flag];
  }
  if (nullable === true && typeof converted.type === 'string') {
    converted.type = [converted.type, 'null'];
  }
  return converted;
}

function describe(where: string, what: string, validate: ValidateFunction): string[] {
  return (validate.errors ?? []).map(
    (e) =>
      `${where}: ${what}${e.instancePath} ${e.message ?? 'is invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}
