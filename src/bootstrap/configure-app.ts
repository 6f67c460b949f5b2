import type { INestApplication } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ConfigService } from '@nestjs/config';
import helmet from 'helmet';
import { mountQueueBoard } from '../admin/queue-board';
import { ServiceLog, routeTemplate } from '../common/logging/service-log';
import { requestContext } from '../common/pipeline/request-context';
import { metricsHandler } from '../metrics/metrics-endpoint';
import { MetricsService } from '../metrics/metrics.service';
import type { AppConfig } from '../config/app-config';
import { McpTools } from '../mcp/mcp-tools';
import { httpServerSpans } from '../telemetry/spans';
import { corsOptions } from './cors';
import { setupSwagger } from './openapi';

/**
 * Everything about the HTTP app that is not a module: security headers, the access log, Swagger.
 * Bodies are not parsed here but by `RequestInterceptor`, after the guards, so a request refused
 * by the rate limit or the API key guard is never parsed. Shared by main.ts and the e2e harness
 * so tests exercise the real stack.
 */
export function configureApp(app: INestApplication): void {
  const express = app as NestExpressApplication;
  express.disable('x-powered-by');
  const config = app.get<ConfigService<AppConfig, true>>(ConfigService);
  // Off unless TRUST_PROXY says which proxies may name the client (X-Forwarded-For): the rate
  // limit's per-address budget and the access log use that address.
  express.set('trust proxy', config.get('app.trustProxy', { infer: true }));
  app.use(
    helmet({
      // Swagger UI needs inline scripts/styles on /docs; the API itself only returns JSON.
      contentSecurityPolicy: false,
    }),
  );
  // Before every route, guard and the rate limit: a preflight is answered by CORS alone.
  const corsOrigins = config.get('app.corsOrigins', { infer: true });
  if (corsOrigins) app.enableCors(corsOptions(corsOrigins));
  const adminKey = config.get('app.adminApiKey', { infer: true });
  // A plain Express route, before Nest's router: Prometheus text, not the JSON envelope.
  app.getHttpAdapter().get('/metrics', metricsHandler(app.get(MetricsService), adminKey));
  mountQueueBoard(app, adminKey);
  app.enableShutdownHooks();
  // The MCP tools advertise their routes' input schemas as this document states them.
  app.get(McpTools).useDocument(setupSwagger(app));
  // After /metrics, the queue board and /docs (not request-logged), before Nest's routes.
  app.use(app.get(ServiceLog).accessLog);
  // A server span per request when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT), named by its route.
  app.use(httpServerSpans(routeTemplate));
  // Makes the request (caller, id, If-Match) reachable from services: audit entries, ETag checks.
  app.use(requestContext);
}
