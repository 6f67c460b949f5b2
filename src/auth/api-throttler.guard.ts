import { timingSafeEqual } from 'node:crypto';
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectThrottlerStorage, type ThrottlerStorage } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import type { AppConfig } from '../config/app-config';
import { AppErrorCode, AppException } from '../common/errors/app.exception';
import { bearerToken } from '../common/http/bearer';
import type { AuthenticatedRequest } from '../common/auth/current-user.decorator';
import { hashApiKey } from './api-key';
import { AuthService } from './auth.service';

const WINDOW_MS = 60_000;
const THROTTLER_NAME = 'api';

/**
 * The first guard of every route: one budget of `RATE_LIMIT_PER_MINUTE` requests per API key
 * across all routes, per client IP for requests without a valid key, and a bucket of its own for
 * the operator key (so guessing from a shared IP cannot lock the operator out). Counted in Redis
 * when REDIS_URL is set (every API process shares the budget), in memory otherwise.
 *
 * A key this process knows is counted against its own budget only, never its client address's:
 * junk keys sent from the same address (behind a load balancer, from every client) cannot lock it
 * out. A key it does not know needs one query to tell (AuthService then remembers the answer),
 * and the address pays for that query first: once the address's budget is spent, an unknown key
 * from it is answered 429 without reaching the database (a flood of distinct junk keys costs at
 * most the budget's queries a minute). A valid key that this process has not seen yet, sent from
 * a spent address, waits for the address's window like junk (at most a minute). A key without
 * an issued key's shape never costs a query. The key found here is attached to the request, so
 * the API key guard that follows does not look it up again.
 */
@Injectable()
export class ApiThrottlerGuard implements CanActivate {
  private readonly limit: number;
  private readonly adminKeyHash: Buffer | null;

  constructor(
    @InjectThrottlerStorage() private readonly storage: ThrottlerStorage,
    private readonly auth: AuthService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limit = config.get('app.rateLimitPerMinute', { infer: true });
    const adminKey = config.get('app.adminApiKey', { infer: true });
    this.adminKeyHash = adminKey ? Buffer.from(hashApiKey(adminKey), 'hex') : null;
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    if (this.limit === 0) return true;
    const http = context.switchToHttp();
    const req = http.getRequest<AuthenticatedRequest>();
    if (req.path === '/health' || req.path.startsWith('/health/')) return true;
    const res = http.getResponse<Response>();
    const token = bearerToken(req.headers.authorization);
    const address = `ip:${clientIp(req)}`;
    if (token) {
      if (this.isAdminKey(hashApiKey(token))) return this.count('operator', res);
      let user = this.auth.known(token);
      if (user === undefined) {
        // Only a query can tell: the address pays for it first, so a spent address costs none.
        await this.count(address, res);
        user = await this.auth.authenticate(token);
        if (!user) return true;
      }
      if (user) {
        req.user = user;
        return this.count(`key:${user.api_key_id}`, res);
      }
    }
    return this.count(address, res);
  }

  private isAdminKey(hash: string): boolean {
    return (
      this.adminKeyHash !== null && timingSafeEqual(Buffer.from(hash, 'hex'), this.adminKeyHash)
    );
  }

  /** Counts one request against `bucket`; 429 (with Retry-After) once the bucket is spent. */
  private async count(bucket: string, res: Response): Promise<true> {
    const record = await this.storage.increment(
      bucket,
      WINDOW_MS,
      this.limit,
      WINDOW_MS,
      THROTTLER_NAME,
    );
    res.setHeader('X-RateLimit-Limit', this.limit);
    res.setHeader('X-RateLimit-Remaining', Math.max(0, this.limit - record.totalHits));
    res.setHeader('X-RateLimit-Reset', record.timeToExpire);
    if (record.isBlocked) {
      res.setHeader('Retry-After', Math.max(1, record.timeToBlockExpire));
      throw new AppException(
        AppErrorCode.TOO_MANY_REQUESTS,
        `Too many requests: the limit is ${this.limit} per minute`,
      );
    }
    return true;
  }
}

function clientIp(req: Request): string {
  return req.ip ?? req.socket.remoteAddress ?? 'unknown';
}
