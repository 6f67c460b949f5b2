import type { ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { AuthUser } from '../common/auth/auth-user';
import { AppException } from '../common/errors/app.exception';
import { ApiKeyGuard } from './api-key.guard';
import { REQUIRED_SCOPE } from './api-key-scope';
import type { AuthService } from './auth.service';
import { IS_PUBLIC } from './public.decorator';

const ada: AuthUser = {
  user_id: 'u1',
  user_name: 'Ada',
  user_email: 'ada@example.com',
  org_name: null,
  api_key_id: 'k1',
  scopes: ['config'],
};

/** A route handler with the given metadata, and a request to it. */
function call(request: Record<string, unknown>, metadata: Record<string, unknown> = {}) {
  const handler = () => undefined;
  for (const [key, value] of Object.entries(metadata)) Reflect.defineMetadata(key, value, handler);
  return {
    getHandler: () => handler,
    getClass: () => class {},
    switchToHttp: () => ({ getRequest: () => request }),
  } as unknown as ExecutionContext;
}

describe(ApiKeyGuard.name, () => {
  const looked: string[] = [];
  const auth = {
    authenticate: (token: string) => {
      looked.push(token);
      return Promise.resolve(token === 'vac_good' ? ada : null);
    },
  } as unknown as AuthService;
  const guard = new ApiKeyGuard(new Reflector(), auth);
  beforeEach(() => (looked.length = 0));

  it('lets a public route through without a key', () => {
    expect(guard.canActivate(call({ headers: {} }, { [IS_PUBLIC]: true }))).toBe(true);
  });

  it('answers at once, without a lookup, when the rate-limit guard resolved the key', () => {
    const request = { headers: { authorization: 'Bearer vac_good' }, user: ada };
    expect(guard.canActivate(call(request))).toBe(true);
    expect(looked).toEqual([]);
  });

  it('looks the key up otherwise, and attaches its user', async () => {
    const request: { headers: object; user?: AuthUser } = {
      headers: { authorization: 'Bearer vac_good' },
    };
    await expect(guard.canActivate(call(request))).resolves.toBe(true);
    expect(looked).toEqual(['vac_good']);
    expect(request.user).toBe(ada);
  });

  it('refuses a missing or unknown key with 401', async () => {
    expect(() => guard.canActivate(call({ headers: {} }))).toThrow(AppException);
    const unknown = guard.canActivate(call({ headers: { authorization: 'Bearer vac_bad' } }));
    await expect(unknown).rejects.toMatchObject({ status: 401 });
  });

  it("refuses with 403 a key without the route's scope (config unless declared; null: any key)", () => {
    const runtimeOnly = { ...ada, scopes: ['runtime' as const] };
    const request = () => ({ headers: {}, user: runtimeOnly });
    expect(() => guard.canActivate(call(request()))).toThrow(
      expect.objectContaining({ status: 403 }) as Error,
    );
    expect(guard.canActivate(call(request(), { [REQUIRED_SCOPE]: 'runtime' }))).toBe(true);
    expect(guard.canActivate(call(request(), { [REQUIRED_SCOPE]: null }))).toBe(true);
  });
});
