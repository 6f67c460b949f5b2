import {
  HttpStatus,
  Injectable,
  RequestMethod,
  type CallHandler,
  type ExecutionContext,
  type NestInterceptor,
} from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import { from, lastValueFrom, switchMap, type Observable } from 'rxjs';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { envelope } from '../common/envelope/envelope';
import { RESPONSE_MESSAGE } from '../common/envelope/response-message.decorator';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { errorData } from '../common/errors/error-statuses';
import { ReplayedResponse } from '../common/errors/replayed-response';
import { REQUEST_TIMEOUT } from '../common/timeout/request-timeout';
import type { AppConfig } from '../config/app-config';
import { IdempotencyService, requestFingerprint } from './idempotency.service';
import { HOLDS_CREDENTIAL } from './response-sealer';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** 1-255 printable ASCII characters. */
const KEY_FORMAT = /^[\x20-\x7e]{1,255}$/;
const METHODS = new Set(['POST', 'PATCH', 'DELETE']);
/** Owner of the keys sent to the operator's routes, which have no user. */
const OPERATOR = 'operator';

/** The claim of one key by one running request. */
interface Claim {
  owner: string;
  key: string;
  context: ExecutionContext;
  /** The response holds a credential: kept sealed (`HoldsCredential`). */
  sealed: boolean;
  /** The handler's outcome, followed whether or not the client still waits for it. */
  handled: Promise<unknown>;
  settled: () => boolean;
}

/**
 * `Idempotency-Key` on an authenticated POST, PATCH or DELETE: the first final response is kept and
 * a retry of the same request gets it again (`Idempotent-Replayed: true`) without running the
 * route twice. Runs inside `RequestInterceptor`, after the guards and once the body is read, so
 * the key is scoped to the authenticated caller and the fingerprint covers the body as parsed.
 * The response is kept before it is sent, so a client that retries as soon as it has the answer
 * finds it kept. The claim lasts as long as the handler runs: a client told 503 because the
 * route's budget ran out does not free the key while the handler still works; the handler's own
 * outcome is kept once it settles, and a retry meanwhile is told the request is in progress.
 */
@Injectable()
export class IdempotencyInterceptor implements NestInterceptor {
  private readonly defaultBudgetMs: number;

  constructor(
    private readonly idempotency: IdempotencyService,
    private readonly reflector: Reflector,
    config: ConfigService<AppConfig, true>,
  ) {
    this.defaultBudgetMs = config.get('app.requestTimeoutMs', { infer: true });
  }

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
    // A claim outlives its route's budget: twice the budget before another request may take it over.
    const leaseMs = 2 * this.budgetOf(context);
    return from(this.idempotency.begin(owner, key, fingerprint, leaseMs)).pipe(
      switchMap((decision) => {
        switch (decision.kind) {
          case 'replay':
            throw new ReplayedResponse(decision.status, decision.body);
          case 'running':
            throw new AppException(
              AppErrorCode.CONFLICT,
              `A request with this ${IDEMPOTENCY_HEADER} is still in progress; retry once it has answered`,
              null,
              'idempotency_key_in_progress',
            );
          case 'mismatch':
            throw new AppException(
              AppErrorCode.UNPROCESSABLE,
              `This ${IDEMPOTENCY_HEADER} was used with a different request (method, path or body)`,
              null,
              'idempotency_key_reused',
            );
          case 'run':
            return from(this.run(context, next, owner, key));
        }
      }),
    );
  }

  /** Runs the handler under the claim; its outcome is followed even when the client stops waiting. */
  private run(
    context: ExecutionContext,
    next: CallHandler,
    owner: string,
    key: string,
  ): Promise<unknown> {
    let done = false;
    const handled = lastValueFrom(next.handle(), { defaultValue: undefined });
    handled.then(
      () => (done = true),
      () => (done = true),
    );
    const sealed =
      this.reflector.getAllAndOverride<boolean | undefined>(HOLDS_CREDENTIAL, [
        context.getHandler(),
        context.getClass(),
      ]) ?? false;
    const claim = { owner, key, context, sealed, handled, settled: () => done };
    this.keepResponse(context.switchToHttp().getResponse<Response>(), claim);
    return handled;
  }

  /**
   * Stores the response the route (or the exception filter) sends, then sends it. A 5xx sent while
   * the handler still runs (its budget ran out) is not the request's outcome: the key stays
   * claimed and the handler's outcome is stored when it settles.
   */
  private keepResponse(res: Response, claim: Claim): void {
    const send = res.json.bind(res);
    res.json = (body: unknown) => {
      res.json = send;
      if (res.statusCode >= 500 && !claim.settled()) {
        void this.keepLateOutcome(claim);
        return send(body);
      }
      this.idempotency
        .finish(claim.owner, claim.key, res.statusCode, body, claim.sealed)
        .catch(() => undefined) // an unkept response still answers; a retry then runs again
        .finally(() => send(body));
      return res;
    };
  }

  /** The outcome of a handler that settled after its client was answered 503. */
  private async keepLateOutcome({ owner, key, context, sealed, handled }: Claim): Promise<void> {
    const [status, body] = await handled.then(
      (data): [number, unknown] => [this.statusOf(context), this.envelopeOf(context, data)],
      (error: unknown): [number, unknown] =>
        error instanceof AppException
          ? [
              error.status,
              envelope(
                false,
                error.message,
                errorData(error.status, error.data, error.narrowerCode),
              ),
            ]
          : [HttpStatus.INTERNAL_SERVER_ERROR, null],
    );
    await this.idempotency.finish(owner, key, status, body, sealed).catch(() => undefined);
  }

  private statusOf(context: ExecutionContext): number {
    const code = this.reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler());
    if (code) return code;
    const method = context.switchToHttp().getRequest<Request>().method;
    return method === RequestMethod[RequestMethod.POST] ? HttpStatus.CREATED : HttpStatus.OK;
  }

  /** The success envelope `RequestInterceptor` would have sent. */
  private envelopeOf(context: ExecutionContext, data: unknown): unknown {
    const targets = [context.getHandler(), context.getClass()];
    const message = this.reflector.getAllAndOverride<string | undefined>(RESPONSE_MESSAGE, targets);
    return envelope(true, message ?? 'OK', data ?? null);
  }

  private budgetOf(context: ExecutionContext): number {
    const targets = [context.getHandler(), context.getClass()];
    return (
      this.reflector.getAllAndOverride<number | undefined>(REQUEST_TIMEOUT, targets) ??
      this.defaultBudgetMs
    );
  }
}
