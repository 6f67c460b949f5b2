import type { IncomingMessage, ServerResponse } from 'node:http';
import { envelope } from '../common/envelope/envelope';
import { errorData } from '../common/errors/error-statuses';
import { bearerToken, isOperatorKey } from '../common/http/bearer';
import type { MetricsService } from './metrics.service';

function sendJson(
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(envelope(false, message, errorData(status, null))));
}

/**
 * `GET /metrics` in Prometheus text format, for the API (mounted before the Nest router) and the
 * worker (its own small server). Needs `Authorization: Bearer <ADMIN_API_KEY>`; without an
 * operator key configured the route does not exist.
 */
export function metricsHandler(metrics: MetricsService, adminKey: string | null) {
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!adminKey)
      return sendJson(res, 404, 'Metrics are disabled: ADMIN_API_KEY is not configured');
    if (!isOperatorKey(bearerToken(req.headers.authorization), adminKey))
      return sendJson(res, 401, 'Missing or invalid admin key', { 'WWW-Authenticate': 'Bearer' });
    metrics.metrics().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(text);
      },
      () => sendJson(res, 500, 'Metrics could not be collected'),
    );
  };
}
