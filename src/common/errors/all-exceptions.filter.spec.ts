import type { ArgumentsHost } from '@nestjs/common';
import { Logger, NotFoundException } from '@nestjs/common';
import { QueryFailedError } from 'typeorm';
import { AllExceptionsFilter } from './all-exceptions.filter';
import { AppException } from './app.exception';

function run(
  error: unknown,
  request: object = {},
): {
  status: number;
  body: { success: boolean; message: string; data: Record<string, unknown> | null };
} {
  const out = { status: 0, body: undefined as never };
  const response = {
    headersSent: false,
    status(code: number) {
      out.status = code;
      return this;
    },
    json(body: never) {
      out.body = body;
      return this;
    },
    setHeader: () => undefined,
    getHeader: () => undefined,
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => response, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(error, host);
  return out;
}

describe(AllExceptionsFilter.name, () => {
  it('keeps a deliberate error’s status, message and data', () => {
    const { status, body } = run(
      AppException.conflict('Number already assigned', { inbound_id: 'x' }),
    );
    expect(status).toBe(409);
    expect(body).toEqual({
      success: false,
      message: 'Number already assigned',
      data: { code: 'conflict', inbound_id: 'x' },
    });
  });

  it('answers an unknown route with 404 in the envelope', () => {
    const { status, body } = run(new NotFoundException('Cannot GET /nope'));
    expect(status).toBe(404);
    expect(body.message).toBe('Route not found');
  });

  it('hides internals of an unexpected error behind a 500 and an error id', () => {
    const { status, body } = run(
      new TypeError("Cannot read properties of undefined (reading 'x')"),
    );
    expect(status).toBe(500);
    expect(body.message).toBe('Internal server error');
    expect(body.data?.error_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(JSON.stringify(body)).not.toContain('Cannot read');
  });

  it('answers 503 when the database is unreachable, without driver details', () => {
    const driverError = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), {
      code: 'ECONNREFUSED',
    });
    const { status, body } = run(new QueryFailedError('SELECT 1', [], driverError));
    expect(status).toBe(503);
    expect(body.message).toBe('Database unavailable, try again shortly');
    expect(JSON.stringify(body)).not.toMatch(/ECONNREFUSED|SELECT|3306/);
  });

  describe('the service log', () => {
    const secret = 'sk_live_provider_key_0123456789abcdef';
    const failedWrite = (code: string) =>
      new QueryFailedError(
        'UPDATE `assistants` SET `assistant_tts_config` = ? WHERE `assistant_id` = ?',
        [`{"voice_id":"v","api_key":"${secret}"}`, 'a1'],
        Object.assign(new Error(`Incorrect string value: '${secret}'`), { code }),
      );
    let logged: unknown[][];
    beforeEach(() => {
      logged = [];
      jest.spyOn(Logger.prototype, 'error').mockImplementation((...args: unknown[]) => {
        logged.push(args);
      });
    });
    afterEach(() => jest.restoreAllMocks());

    it.each([
      ['an unexpected database error (500)', 'ER_TRUNCATED_WRONG_VALUE_FOR_FIELD', 500],
      ['the database unavailable branch (503)', 'ECONNRESET', 503],
    ])('logs %s by class, code and error_id, never the parameters', (_what, code, status) => {
      const { status: answered, body } = run(failedWrite(code));
      expect(answered).toBe(status);
      expect(logged).toHaveLength(1);
      const [fields] = logged[0] as [Record<string, unknown>];
      expect(fields).toMatchObject({
        error_id: body.data?.error_id,
        err: { type: 'QueryFailedError', code },
      });
      const text = JSON.stringify(logged);
      expect(text).not.toContain(secret);
      expect(text).not.toContain('UPDATE');
    });

    it("logs through the request's own logger when the access log gave it one", () => {
      const requestLogged: unknown[][] = [];
      const log = { error: (...args: unknown[]) => requestLogged.push(args) };
      const { body } = run(failedWrite('ER_TRUNCATED_WRONG_VALUE_FOR_FIELD'), { log });
      expect(logged).toHaveLength(0);
      expect(requestLogged).toEqual([
        [
          {
            context: 'ExceptionFilter',
            error_id: body.data?.error_id,
            err: expect.objectContaining({ type: 'QueryFailedError' }),
          },
          'unhandled error',
        ],
      ]);
      expect(JSON.stringify(requestLogged)).not.toContain(secret);
    });
  });
});
