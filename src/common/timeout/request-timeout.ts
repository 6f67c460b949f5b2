import {
  Injectable,
  SetMetadata,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { catchError, throwError, timeout, TimeoutError, type Observable } from 'rxjs';
import { AppErrorCode, AppException } from '../errors/app.exception';

const REQUEST_TIMEOUT = 'request:timeout-ms';

/** A route whose work legitimately takes longer than `REQUEST_TIMEOUT_MS` (e.g. a customer webhook call). */
export const RequestTimeout = (ms: number) => SetMetadata(REQUEST_TIMEOUT, ms);

/**
 * Answers 503 when a handler has not finished within the budget, so a database that stops
 * answering (a query sent on an open connection has no timeout of its own) costs the client a
 * bounded wait instead of a hang.
 */
@Injectable()
export class RequestTimeoutInterceptor implements NestInterceptor {
  private readonly defaultMs: number;

  constructor(
    private readonly reflector: Reflector,
    config: ConfigService,
  ) {
    this.defaultMs = config.get<number>('app.requestTimeoutMs', 5000);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const ms =
      this.reflector.getAllAndOverride<number | undefined>(REQUEST_TIMEOUT, [
        context.getHandler(),
        context.getClass(),
      ]) ?? this.defaultMs;
    return next.handle().pipe(
      timeout(ms),
      catchError((error: unknown) =>
        throwError(() =>
          error instanceof TimeoutError
            ? new AppException(
                AppErrorCode.DEPENDENCY_UNAVAILABLE,
                `Request did not complete within ${ms} ms`,
              )
            : error,
        ),
      ),
    );
  }
}
