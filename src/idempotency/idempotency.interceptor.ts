import {
  Injectable,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import type { Request, Response } from 'express';
import { from, switchMap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { ReplayedResponse } from '../common/errors/replayed-response';
import { IdempotencyService, requestFingerprint } from './idempotency.service';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1-255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const METHODS = new Set(['POST', 'PATCH', 'DELETE']);
/** Owner of the keys sent to the operator's routes, which have no user. */
const OPERATOR = 'operator';

/**
 * `Idempotency-Key` on an authenticated POST, PATCH or DELETE: the first final response is kept and
 * a retry of the same request gets it again (`Idempotent-Replayed: true`) without running the
 * route twice. Runs inside `RequestInterceptor`, after the guards and once the body is read, so
 * the key is scoped to the authenticated caller and the fingerprint covers the body as parsed.
 * The response is kept before it is sent, so a client that retries as soon as it has the answer
 * finds it kept.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  constructor(private readonly idempotency: IdempotencyService) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request & AuthenticatedRequest>();
    const raw = req.headers[IDEMPOTENCY_HEADER.toLowerCase()];
    if (!METHODS.has(req.method) || raw === undefined) return next.handle();
    const key = Array.isArray(raw) ? raw.join(', ') : raw;
    if (!KEY_FORMAT.test(key)) {
      throw AppException.validation([
        {
          field: IDEMPOTENCY_HEADER,
          message: `${IDEMPOTENCY_HEADER} must be 1-255 printable ASCII characters`,
        },
      ]);
    }
    const owner = req.user?.user_id ?? OPERATOR;
    const fingerprint = requestFingerprint(req.method, req.originalUrl, req.body);
    return from(this.idempotency.begin(owner, key, fingerprint)).pipe(
      switchMap((decision) => {
        switch (decision.kind) {
          case 'replay':
            throw new ReplayedResponse(decision.status, decision.body);
          case 'running':
            throw new AppException(
              AppErrorCode.CONFLICT,
              `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry once it has answered`,
            );
          case 'mismatch':
            throw new AppException(
              AppErrorCode.UNPROCESSABLE,
              `This ${IDEMPOTENCY_HEADER} was used with a different request (method, path or body)`,
            );
          case 'run':
            this.keepResponse(http.getResponse<Response>(), owner, key);
            return next.handle();
        }
      }),
    );
  }

  /** Stores the response the route (or the exception filter) sends, then sends it. */
  private keepResponse(res: Response, owner: string, key: string): void {
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      res.json = send;
      this.idempotency
        .finish(owner, key, res.statusCode, body)
        .catch(() => undefined) // an unkept response still answers; a retry then runs again
        .finally(() => send(body));
      return res;
    };
  }
}
