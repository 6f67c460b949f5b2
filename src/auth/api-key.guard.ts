import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { bearerToken } from '../common/http/bearer';
import type { ApiKeyScope } from '../common/auth/auth-user';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { REQUIRED_SCOPE } from './api-key-scope';
import { AuthService } from './auth.service';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global guard: every route needs `Authorization: Bearer <API_KEY>` unless marked `@Public()`, and
 * the key must hold the route's scope (`@RequiresScope`, `config` when not declared): 403 otherwise.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (
      this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [
        context.getHandler(),
        context.getClass(),
      ])
    )
      return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    // The rate-limit guard before this one has usually resolved the key already.
    const token = request.user ? null : bearerToken(request.headers.authorization);
    const user = request.user ?? (token ? await this.auth.authenticate(token) : null);
    if (!user) throw new AppException(AppErrorCode.UNAUTHORIZED, 'Missing or invalid API key');
    request.user = user;
    const required = this.reflector.getAllAndOverride<ApiKeyScope | null | undefined>(
      REQUIRED_SCOPE,
      [context.getHandler(), context.getClass()],
    );
    const scope = required === undefined ? 'config' : required;
    if (scope && !user.scopes.includes(scope)) {
      throw new AppException(
        AppErrorCode.FORBIDDEN,
        `This API key lacks the '${scope}' scope this route needs`,
      );
    }
    return true;
  }
}
