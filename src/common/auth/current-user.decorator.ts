import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { AuthUser } from './auth-user';

export type AuthenticatedRequest = Request & { user?: AuthUser };

/** The caller resolved by `ApiKeyGuard`; every protected route scopes its work to `user.user_id`. */
export const CurrentUser = createParamDecorator((_: unknown, ctx: ExecutionContext): AuthUser => {
  const request = ctx.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!request.user)
    throw new Error('CurrentUser used on a route the API key guard did not authenticate');
  return request.user;
});
