import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, NEVER, of } from 'rxjs';
import { AppException } from '../errors/app.exception';
import { RequestTimeoutInterceptor } from './request-timeout';

const context = {
  getHandler: () => () => undefined,
  getClass: () => class {},
} as unknown as ExecutionContext;
const config = { get: () => 50 } as unknown as ConfigService;

describe(RequestTimeoutInterceptor.name, () => {
  const interceptor = new RequestTimeoutInterceptor(new Reflector(), config);

  it('passes a timely result through', async () => {
    const next: CallHandler = { handle: () => of('done') };
    await expect(lastValueFrom(interceptor.intercept(context, next))).resolves.toBe('done');
  });

  it('turns a handler that never answers into a 503', async () => {
    const next: CallHandler = { handle: () => NEVER };
    const error = await lastValueFrom(interceptor.intercept(context, next)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).status).toBe(503);
  });
});
