import { randomUUID } from 'node:crypto';
import {
  ArgumentsHost,
  Catch,
  HttpException,
  HttpStatus,
  Logger,
  type ExceptionFilter,
} from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { Logger as PinoLogger } from 'pino';
import { envelope } from '../envelope/envelope';
import { AppException } from './app.exception';
import { ERROR_STATUSES, errorData } from './error-statuses';
import { loggableError } from './loggable-error';
import { NotModifiedResponse, ReplayedResponse } from './replayed-response';

/**
 * The one place an error becomes a response. Deliberate errors (`AppException`, Nest's HTTP
 * exceptions) keep their status and message; anything else is a 500 with a generic message and an
 * `error_id` that is also in the service log. Stacks, SQL and class names never reach the client;
 * the log line holds the error's class, codes and stack frames only (`loggableError`), never its
 * message or the statement's parameters.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('ExceptionFilter');

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (response.headersSent) return;

    if (exception instanceof ReplayedResponse) {
      response.setHeader('Idempotent-Replayed', 'true');
      response.status(exception.status).json(exception.body);
      return;
    }
    if (exception instanceof NotModifiedResponse) {
      response.setHeader('ETag', exception.etag);
      response.status(HttpStatus.NOT_MODIFIED).end();
      return;
    }
    if (exception instanceof AppException) {
      const data = errorData(exception.status, exception.data, exception.narrowerCode);
      response.status(exception.status).json(envelope(false, exception.message, data));
      return;
    }
    if (exception instanceof HttpException) {
      const status: number = exception.getStatus();
      if (exception instanceof ThrottlerException)
        response.setHeader('Retry-After', response.getHeader('Retry-After') ?? '60');
      const body = exception.getResponse();
      const extra =
        status === 503 && typeof body === 'object' ? (body as Record<string, unknown>) : null;
      const message = this.messageOf(status, exception);
      const narrower = message === 'Route not found' ? 'route_not_found' : undefined;
      response.status(status).json(envelope(false, message, errorData(status, extra, narrower)));
      return;
    }

    const errorId = randomUUID();
    const fields = { err: loggableError(exception), error_id: errorId };
    const request = host.switchToHttp().getRequest<Request & { log?: PinoLogger }>();
    if (isDatabaseUnavailable(exception)) {
      this.logError(request, fields, 'database unavailable');
      response
        .status(HttpStatus.SERVICE_UNAVAILABLE)
        .json(
          envelope(
            false,
            'Database unavailable, try again shortly',
            errorData(503, { error_id: errorId }),
          ),
        );
      return;
    }
    this.logError(request, fields, 'unhandled error');
    response
      .status(HttpStatus.INTERNAL_SERVER_ERROR)
      .json(envelope(false, 'Internal server error', errorData(500, { error_id: errorId })));
  }

  /**
   * Through the request's own logger when the access log gave it one (its line then carries the
   * request's id, method and URL, as the access-log line does), through Nest's logger otherwise.
   */
  private logError(request: { log?: PinoLogger }, fields: object, message: string): void {
    if (request.log) request.log.error({ context: 'ExceptionFilter', ...fields }, message);
    else this.logger.error(fields, message);
  }

  private messageOf(status: number, exception: HttpException): string {
    if (status === 404)
      return exception.message.startsWith('Cannot ') ? 'Route not found' : exception.message;
    if (status < 500 && typeof exception.message === 'string' && exception.message) {
      return exception.message;
    }
    return ERROR_STATUSES[status]?.fallback ?? 'Error';
  }
}

const CONNECTION_ERRORS = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  'PROTOCOL_CONNECTION_LOST',
  'PROTOCOL_SEQUENCE_TIMEOUT',
  'ER_CON_COUNT_ERROR',
  'ER_SERVER_SHUTDOWN',
  'SQLITE_BUSY',
]);

/** A driver error that means "the database is not reachable right now", not a bug in the request. */
function isDatabaseUnavailable(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 3; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && CONNECTION_ERRORS.has(code)) return true;
    e = (e as { driverError?: unknown }).driverError;
  }
  return false;
}
