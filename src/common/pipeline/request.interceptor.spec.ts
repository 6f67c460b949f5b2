import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, NEVER, of, throwError } from 'rxjs';
import type { AppConfig } from '../../config/app-config';
import { AppErrorCode, AppException } from '../errors/app.exception';
import { NotModifiedResponse } from '../errors/replayed-response';
import { ETAGGED } from '../etag/etag.decorator';
import { etagOf } from '../etag/etag';
import { RequestInterceptor, type WriteInterceptor } from './request.interceptor';

function contextFor(method: string, headers: Record<string, string> = {}, etagged = false) {
  const handler = () => undefined;
  if (etagged) Reflect.defineMetadata(ETAGGED, true, handler);
  const response = { headers: {} as Record<string, string> };
  const res = { setHeader: (name: string, value: string) => (response.headers[name] = value) };
  const context = {
    getHandler: () => handler,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => ({ method, headers }), getResponse: () => res }),
  } as unknown as ExecutionContext;
  return { context, response };
}
const { context } = contextFor('GET');
const config = { get: () => 50 } as unknown as ConfigService<AppConfig, true>;

describe(RequestInterceptor.name, () => {
  const interceptor = new RequestInterceptor(new Reflector(), config);

  it('wraps a timely result into the success envelope', async () => {
    const next: CallHandler = { handle: () => of('done') };
    await expect(lastValueFrom(interceptor.intercept(context, next))).resolves.toEqual({
      success: true,
      message: 'OK',
      data: 'done',
    });
  });

  it('turns a handler that never answers into a 503', async () => {
    const next: CallHandler = { handle: () => NEVER };
    const error = await lastValueFrom(interceptor.intercept(context, next)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).status).toBe(503);
  });

  it('passes a handler error through untouched', async () => {
    const boom = new Error('boom');
    const next: CallHandler = { handle: () => throwError(() => boom) };
    await expect(lastValueFrom(interceptor.intercept(context, next))).rejects.toBe(boom);
  });

  describe('the write interceptor', () => {
    const seen: string[] = [];
    const writes: WriteInterceptor = {
      intercept: (ctx, next) => {
        seen.push(ctx.switchToHttp().getRequest<{ method: string }>().method);
        return next.handle();
      },
    };
    const withWrites = new RequestInterceptor(new Reflector(), config, writes);
    const next: CallHandler = { handle: () => of({ id: 1 }) };

    it('runs around the handler of a write, and not of a read', async () => {
      for (const method of ['DELETE', 'GET', 'HEAD']) {
        await lastValueFrom(withWrites.intercept(contextFor(method).context, next));
      }
      expect(seen).toEqual(['DELETE']);
    });

    it('turns what it throws into the response error', async () => {
      const refused = new AppException(AppErrorCode.CONFLICT, 'in progress');
      const throwing = new RequestInterceptor(new Reflector(), config, {
        intercept: () => {
          throw refused;
        },
      });
      await expect(
        lastValueFrom(throwing.intercept(contextFor('DELETE').context, next)),
      ).rejects.toBe(refused);
    });
  });

  describe('an @ETagged route', () => {
    const view = { assistant_id: 'a1', name: 'A' };
    const next: CallHandler = { handle: () => of(view) };

    it('answers the ETag of what the handler returned, inside the envelope', async () => {
      const { context: tagged, response } = contextFor('GET', {}, true);
      const body = await lastValueFrom(interceptor.intercept(tagged, next));
      expect(body).toEqual({ success: true, message: 'OK', data: view });
      expect(response.headers.ETag).toBe(etagOf(view));
    });

    it('answers 304 to a GET whose If-None-Match names it', async () => {
      const { context: tagged } = contextFor('GET', { 'if-none-match': etagOf(view) }, true);
      await expect(lastValueFrom(interceptor.intercept(tagged, next))).rejects.toBeInstanceOf(
        NotModifiedResponse,
      );
    });

    it('sets no ETag on a route not marked', async () => {
      const { context: plain, response } = contextFor('GET');
      await lastValueFrom(interceptor.intercept(plain, next));
      expect(response.headers.ETag).toBeUndefined();
    });
  });
});
