import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import helmet from 'helmet';

/**
 * Everything about the HTTP app that is not a module: security headers, Swagger. Bodies are not
 * parsed here but by `RequestInterceptor`, after the guards, so a request refused by the rate
 * limit or the API key guard is never parsed. Shared by main.ts and the e2e harness so tests exercise the real stack.
 */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  express.set('trust proxy', false);
  app.use(
    helmet({
      // Swagger UI needs inline scripts/styles on /docs; the API itself only returns JSON.
      contentSecurityPolicy: false,
    }),
  );
  app.enableShutdownHooks();
  setupSwagger(app);
}

export function setupSwagger(app: INestApplication): void {
  const config = new DocumentBuilder()
    .setTitle('Voice Assistant Configuration Service')
    .setDescription(
      'Assistants, tools, inbound context strategies and the activity log of a voice-AI calling platform. ' +
        'Every response is the envelope `{success, message, data}`. Authenticate with `Authorization: Bearer <API_KEY>`.',
    )
    .setVersion('1.0')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key (vac_...)' })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs-json' });
}
