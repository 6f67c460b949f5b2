import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { bearerToken } from '../common/http/bearer';
import type { AuthUser, ApiKeyScope } from '../common/auth/auth-user';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { REQUIRED_SCOPE } from './api-key-scope';
import { AuthService } from './auth.service';
import { IS_PUBLIC } from './public.decorator';

/** What a route asks of the key: nothing (`@Public()`), or a scope (null: any key). */
type Requirement = { public: true } | { public: false; scope: ApiKeyScope | null };

/**
 * Global guard: every route needs `Authorization: Bearer <API_KEY>` unless marked `@Public()`, and
 * the key must hold the route's scope (`@RequiresScope`, `config` when not declared): 403 otherwise.
 * A route's requirement is read from its metadata once and remembered. When the rate-limit guard
 * before this one has resolved the key already (the usual case), the answer is given at once,
 * without a promise.
 */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  private readonly routes = new Map<object, Requirement>();

  constructor(
    private readonly reflector: Reflector,
    private readonly auth: AuthService,
  ) {}

  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    const route = this.requirementOf(context);
    if (route.public) return true;
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    if (request.user) return this.admit(request, request.user, route.scope);
    const token = bearerToken(request.headers.authorization);
    if (!token) return this.admit(request, null, route.scope);
    return this.auth.authenticate(token).then((user) => this.admit(request, user, route.scope));
  }

  private admit(
    request: AuthenticatedRequest,
    user: AuthUser | null,
    scope: ApiKeyScope | null,
  ): true {
    if (!user) throw new AppException(AppErrorCode.UNAUTHORIZED, 'Missing or invalid API key');
    request.user = user;
    if (scope && !user.scopes.includes(scope)) {
      throw new AppException(
        AppErrorCode.FORBIDDEN,
        `This API key lacks the '${scope}' scope this route needs`,
      );
    }
    return true;
  }

  private requirementOf(context: ExecutionContext): Requirement {
    const handler = context.getHandler();
    let route = this.routes.get(handler);
    if (!route) {
      const targets = [handler, context.getClass()];
      const required = this.reflector.getAllAndOverride<ApiKeyScope | null | undefined>(
        REQUIRED_SCOPE,
        targets,
      );
      route = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)
        ? { public: true }
        : { public: false, scope: required === undefined ? 'config' : required };
      this.routes.set(handler, route);
    }
    return route;
  }
}
