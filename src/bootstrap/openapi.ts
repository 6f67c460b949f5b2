import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { documentErrorResponses } from '../common/envelope/openapi-error-responses';
import { documentETags } from '../common/etag/openapi-etag';
import { documentBounds } from '../common/validation/openapi-bounds';
import { closeRequestBodies } from '../common/validation/openapi-closed-bodies';
import { documentNullability, strictNullability } from '../common/validation/openapi-nullable';
import { documentIdempotency } from '../idempotency/openapi-idempotency';
import { exampleIdInterceptors } from './swagger-example-ids';

/** The OpenAPI document of the running app's routes. */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Voice Assistant Configuration Service')
    .setDescription(
      'Assistants, tools, inbound context strategies and the activity log of a voice-AI calling platform. ' +
        'Every response is the envelope `{success, message, data}`. Authenticate with `Authorization: Bearer <API_KEY>`.',
    )
    .setVersion('1.0')
    .addServer('/', 'This service')
    // The keys are opaque strings, not JWTs (Nest's default bearerFormat).
    .addBearerAuth({
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'opaque',
      description: 'API key (vac_...)',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  return closeRequestBodies(
    strictNullability(
      documentErrorResponses(
        documentETags(documentIdempotency(documentNullability(documentBounds(document)))),
      ),
    ),
  );
}

/**
 * Doubles every `$` in keys and strings. @nestjs/swagger splices the document's JSON into
 * swagger-ui-init.js with `String.prototype.replace`, whose replacement string gives `$&`, `` $` ``,
 * `$'`, `$1` and `$<` special meanings; `$$` is the one that stands for a literal `$`, so a doubled
 * document comes out of that call exactly as it went in, whatever text the DTOs hold.
 */
export function escapeForReplacement<T>(value: T): T {
  if (typeof value === 'string') return value.replaceAll('$', '$$$$') as T;
  if (Array.isArray(value)) return value.map((item: unknown) => escapeForReplacement(item)) as T;
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        escapeForReplacement(key),
        escapeForReplacement(item),
      ]),
    ) as T;
  }
  return value;
}

/** Serves Swagger UI on /docs and the document on /docs-json; answers the document. */
export function setupSwagger(app: INestApplication): OpenAPIObject {
  const document = buildOpenApiDocument(app);
  let escaped: OpenAPIObject | undefined;
  SwaggerModule.setup('docs', app, document, {
    jsonDocumentUrl: 'docs-json',
    // Execute of a create fills the examples' placeholder ids of later requests (see the file).
    swaggerOptions: exampleIdInterceptors(),
    // Only the UI's init script goes through `replace`; /docs-json is served verbatim.
    patchDocumentOnRequest: (req, _res, doc) => {
      const path = (req as { path?: string }).path ?? '';
      if (!path.endsWith('/swagger-ui-init.js')) return doc;
      escaped ??= escapeForReplacement(doc);
      return escaped;
    },
  });
  return document;
}
