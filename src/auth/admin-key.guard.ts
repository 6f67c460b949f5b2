import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { bearerToken, isOperatorKey } from '../common/http/bearer';

/** Operator-only routes: the bearer must equal `ADMIN_API_KEY` (compared in constant time); without it they are disabled. */
@Injectable()
export class AdminKeyGuard implements CanActivate {
  constructor(private readonly config: ConfigService<AppConfig, true>) {}

  canActivate(context: ExecutionContext): boolean {
    const adminKey = this.config.get('app.adminApiKey', { infer: true });
    if (!adminKey) {
      throw new AppException(
        AppErrorCode.FORBIDDEN,
        'Operator routes are disabled: ADMIN_API_KEY is not configured',
      );
    }
    const token = bearerToken(context.switchToHttp().getRequest<Request>().headers.authorization);
    if (!isOperatorKey(token, adminKey)) {
      throw new AppException(AppErrorCode.UNAUTHORIZED, 'Missing or invalid admin key');
    }
    return true;
  }
}
