import { Injectable, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import {
  InjectThrottlerOptions,
  InjectThrottlerStorage,
  ThrottlerGuard,
  type ThrottlerModuleOptions,
  type ThrottlerStorage,
} from '@nestjs/throttler';
import type { Request } from 'express';
import { bearerToken } from './api-key';
import { AuthService } from './auth.service';

/**
 * Rate limits per API key, and per client IP for requests without a valid key (so guessing keys
 * is limited too). Runs before the API key guard; the key lookup it does is cached by AuthService,
 * so the guard that follows pays nothing for it.
 */
@Injectable()
export class ApiThrottlerGuard extends ThrottlerGuard {
  constructor(
    @InjectThrottlerOptions() options: ThrottlerModuleOptions,
    @InjectThrottlerStorage() storage: ThrottlerStorage,
    reflector: Reflector,
    private readonly auth: AuthService,
  ) {
    super(options, storage, reflector);
  }

  protected override async getTracker(req: Request): Promise<string> {
    const token = bearerToken(req.headers.authorization);
    const user = token ? await this.auth.authenticate(token) : null;
    return user ? `key:${user.api_key_id}` : `ip:${req.ip ?? req.socket.remoteAddress ?? 'unknown'}`;
  }

  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    const req = context.switchToHttp().getRequest<Request>();
    return Promise.resolve(req.path === '/health');
  }
}
