import {
  Inject,
  Injectable,
  Optional,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { Observable, type Subscription } from 'rxjs';
import type { AppConfig } from '../../config/app-config';
import { readJsonBody, readsBody } from '../body/json-body';
import { envelope, type Envelope } from '../envelope/envelope';
import { ETAGGED, withETag } from '../etag/etag.decorator';
import { RESPONSE_MESSAGE } from '../envelope/response-message.decorator';
import { AppErrorCode, AppException } from '../errors/app.exception';
import { REQUEST_TIMEOUT } from '../timeout/request-timeout';

interface RouteSettings {
  message: string;
  timeoutMs: number;
  /** `@ETagged('details' | 'update')`: the answer carries an `ETag`. */
  etag: boolean;
}

/**
 * What runs around the handler of a write (POST, PUT, PATCH, DELETE) inside `RequestInterceptor`,
 * once the body is read: the `Idempotency-Key` check, provided by the root module under this token.
 */
export const WRITE_INTERCEPTOR = Symbol('WRITE_INTERCEPTOR');
export type WriteInterceptor = {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown>;
};
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * The one interceptor of every route. It runs after the guards, so only a request that is
 * authenticated and within its rate limit gets here, and then:
 *  1. reads and checks the JSON body (an unauthenticated or throttled request's body is never parsed);
 *  2. answers 503 when the handler has not finished within the route's budget
 *     (`REQUEST_TIMEOUT_MS`, or `@RequestTimeout(ms)`), so a database that stops answering costs the
 *     client a bounded wait instead of a hang;
 *  3. on a write, runs the handler through the `WRITE_INTERCEPTOR` (the idempotency check);
 *  4. on an `@ETagged` route, sets `ETag` from what the handler returns (or answers 304);
 *  5. wraps what the handler returns into `{success: true, message, data}`.
 * Steps 3 and 4 are called from here rather than registered as interceptors of their own: every
 * interceptor Nest runs costs each request an `AsyncResource` and two more observables, whether or not
 * it has anything to do. A route's message, budget and ETag flag are read from its metadata once and
 * remembered.
 */
@Injectable()
export class RequestInterceptor implements NestInterceptor {
  private readonly defaultMs: number;
  private readonly routes = new Map<object, RouteSettings>();

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService<AppConfig, true>,
    @Optional() @Inject(WRITE_INTERCEPTOR) private readonly writes?: WriteInterceptor,
  ) {
    this.defaultMs = config.get('app.requestTimeoutMs', { infer: true });
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<Envelope> {
    const route = this.settingsOf(context);
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const handler: CallHandler = route.etag
      ? { handle: () => withETag(req, http.getResponse<Response>(), next.handle()) }
      : next;
    return new Observable<Envelope>((subscriber) => {
      let inner: Subscription | undefined;
      let timer: NodeJS.Timeout | undefined;
      let closed = false;
      const run = () => {
        if (closed) return;
        timer = setTimeout(() => {
          inner?.unsubscribe();
          subscriber.error(
            new AppException(
              AppErrorCode.DEPENDENCY_UNAVAILABLE,
              `Request did not complete within ${route.timeoutMs} ms`,
            ),
          );
        }, route.timeoutMs);
        let data$: Observable<unknown>;
        try {
          data$ =
            this.writes && WRITES.has(req.method)
              ? this.writes.intercept(context, handler)
              : handler.handle();
        } catch (error) {
          subscriber.error(error);
          return;
        }
        inner = data$.subscribe({
          next: (data: unknown) => subscriber.next(envelope(true, route.message, data ?? null)),
          error: (error: unknown) => subscriber.error(error),
          complete: () => subscriber.complete(),
        });
      };
      if (!readsBody(req.method)) run();
      else
        readJsonBody(req, http.getResponse<Response>()).then(run, (error: unknown) =>
          subscriber.error(error),
        );
      return () => {
        closed = true;
        clearTimeout(timer);
        inner?.unsubscribe();
      };
    });
  }

  private settingsOf(context: ExecutionContext): RouteSettings {
    const handler = context.getHandler();
    let settings = this.routes.get(handler);
    if (!settings) {
      const targets = [handler, context.getClass()];
      settings = {
        message:
          this.reflector.getAllAndOverride<string | undefined>(RESPONSE_MESSAGE, targets) ?? 'OK',
        timeoutMs:
          this.reflector.getAllAndOverride<number | undefined>(REQUEST_TIMEOUT, targets) ??
          this.defaultMs,
        etag: this.reflector.get<boolean | undefined>(ETAGGED, handler) === true,
      };
      this.routes.set(handler, settings);
    }
    return settings;
  }
}
