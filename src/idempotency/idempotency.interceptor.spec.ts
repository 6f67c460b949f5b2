import type { CallHandler, ExecutionContext } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import { Reflector } from '@nestjs/core';
import { from, lastValueFrom } from 'rxjs';
import type { AppConfig } from '../config/app-config';
import { AppException } from '../common/errors/app.exception';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import type { IdempotencyDecision, IdempotencyService } from './idempotency.service';

interface Finished {
  status: number;
  body: unknown;
}

function harness() {
  const finished: Finished[] = [];
  const leases: number[] = [];
  const service = {
    begin: (_o: string, _k: string, _f: string, leaseMs: number) => {
      leases.push(leaseMs);
      return Promise.resolve<IdempotencyDecision>({ kind: 'run' });
    },
    finish: (_o: string, _k: string, status: number, body: unknown) => {
      finished.push({ status, body });
      return Promise.resolve();
    },
  } as unknown as IdempotencyService;
  const sent: Finished[] = [];
  const res = {
    statusCode: 200,
    json(body: unknown) {
      sent.push({ status: this.statusCode, body });
      return this;
    },
  };
  const req = {
    method: 'PATCH',
    originalUrl: '/thing/1',
    body: {},
    headers: { 'idempotency-key': 'key-1' },
    user: { user_id: 'u1' },
  };
  const context = {
    getHandler: () => function handler() {},
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => req, getResponse: () => res }),
  } as unknown as ExecutionContext;
  const config = { get: () => 5000 } as unknown as ConfigService<AppConfig, true>;
  const interceptor = new IdempotencyInterceptor(service, new Reflector(), config);
  return { interceptor, context, res, finished, sent, leases };
}

/** A handler that settles when the test says so. */
function pending() {
  let settle!: { resolve: (v: unknown) => void; reject: (e: unknown) => void };
  const promise = new Promise((resolve, reject) => (settle = { resolve, reject }));
  const next: CallHandler = { handle: () => from(promise) };
  return { next, settle };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

/** What RequestInterceptor and the filter do when the budget runs out: stop waiting, send 503. */
async function timeOut(h: ReturnType<typeof harness>, next: CallHandler) {
  const subscription = h.interceptor.intercept(h.context, next).subscribe({ error: () => {} });
  await flush();
  subscription.unsubscribe();
  h.res.statusCode = 503;
  h.res.json({ success: false, message: 'Request did not complete within 5000 ms', data: null });
}

describe(IdempotencyInterceptor.name, () => {
  it('keeps the answer the route sends when it answers within its budget', async () => {
    const h = harness();
    const { next, settle } = pending();
    const done = lastValueFrom(h.interceptor.intercept(h.context, next));
    settle.resolve('sent');
    await expect(done).resolves.toBe('sent');
    h.res.json({ success: true, message: 'OK', data: 'sent' });
    await flush();
    expect(h.finished).toEqual([
      { status: 200, body: { success: true, message: 'OK', data: 'sent' } },
    ]);
    expect(h.leases).toEqual([10_000]);
  });

  it('does not free the key when the client is told 503 while the handler runs, and keeps its outcome', async () => {
    const h = harness();
    const { next, settle } = pending();
    await timeOut(h, next);
    await flush();
    expect(h.sent.map((s) => s.status)).toEqual([503]);
    expect(h.finished).toEqual([]); // the claim is held: a retry is told "in progress"
    settle.resolve({ id: 7 });
    await flush();
    expect(h.finished).toEqual([
      { status: 200, body: { success: true, message: 'OK', data: { id: 7 } } },
    ]);
  });

  it('keeps a late typed error as its status and envelope; frees the key after an unexpected one', async () => {
    const h = harness();
    const late = pending();
    await timeOut(h, late.next);
    late.settle.reject(AppException.conflict('Tool gone'));
    await flush();
    expect(h.finished).toEqual([
      { status: 409, body: { success: false, message: 'Tool gone', data: { code: 'conflict' } } },
    ]);

    const other = harness();
    const crash = pending();
    await timeOut(other, crash.next);
    crash.settle.reject(new Error('boom'));
    await flush();
    expect(other.finished).toEqual([{ status: 500, body: null }]);
  });
});
