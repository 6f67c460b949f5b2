import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { lastValueFrom, NEVER, of, throwError } from 'rxjs';
import type { AppConfig } from '../../config/app-config';
import { AppException } from '../errors/app.exception';
import { RequestInterceptor } from './request.interceptor';

const request = { method: 'GET', headers: {} };
const context = {
  getHandler: () => () => undefined,
  getClass: () => class {},
  switchToHttp: () => ({ getRequest: () => request, getResponse: () => ({}) }),
} as unknown as ExecutionContext;
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
});
