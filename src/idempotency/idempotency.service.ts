import { createHash } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { loggableError } from '../common/errors/loggable-error';
import type { AppConfig } from '../config/app-config';
import { dateParam } from '../database/date-param';
import { isUniqueViolation } from '../database/unique-violation';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { SEALED_PREFIX, type ResponseSealer } from './response-sealer';

/** How long a key's first response is kept. */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** What to do with a request that carries a key. */
export type IdempotencyDecision =
  | { kind: 'run' }
  | { kind: 'replay'; status: number; body: unknown }
  | { kind: 'running' }
  | { kind: 'mismatch' };

/** SHA-256 of what makes two requests "the same": method, path with query, and body. */
export function requestFingerprint(method: string, path: string, body: unknown): string {
  return createHash('sha256')
    .update(`${method.toUpperCase()} ${path}\n${JSON.stringify(body ?? null)}`)
    .digest('hex');
}

/**
 * Keeps the first final response (2xx or 4xx) of each (caller, `Idempotency-Key`) for 24 hours in
 * the database, so every API process answers a retry the same way. A key is claimed by inserting
 * its row (the primary key lets one request win); the winner runs and stores its response; a
 * retry of the same request gets that response again, another request with the key is refused.
 * A claim whose request never finished (its process died) is taken over once it is older than
 * its lease (twice the route's budget, given by the caller); a claim is never released while its
 * request runs.
 */
@Injectable()
export class IdempotencyService {
  private readonly logger = new Logger(IdempotencyService.name);
  private readonly defaultLeaseMs: number;
  private sealer: ResponseSealer | null = null;

  constructor(
    @InjectRepository(IdempotencyKeyEntity)
    private readonly keys: Repository<IdempotencyKeyEntity>,
    config: ConfigService<AppConfig, true>,
  ) {
    this.defaultLeaseMs = 2 * config.get('app.requestTimeoutMs', { infer: true });
  }

  /** How responses that hold a credential are sealed (see `HoldsCredential`). */
  useSealer(sealer: ResponseSealer): void {
    this.sealer = sealer;
  }

  /**
   * Claims `key` for a request with `fingerprint`, or says how its earlier use answers. A claim
   * older than `leaseMs` whose request never answered is taken over.
   */
  async begin(
    ownerId: string,
    key: string,
    fingerprint: string,
    leaseMs = this.defaultLeaseMs,
  ): Promise<IdempotencyDecision> {
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const now = new Date();
      if (await this.claim(ownerId, key, fingerprint, now)) return { kind: 'run' };
      const row = await this.keys.findOneBy({ owner_id: ownerId, idempotency_key: key });
      if (!row) continue; // released or purged in between: claim again
      const abandoned = row.state === 'running' && row.created_at.getTime() + leaseMs < +now;
      const body = row.state === 'running' ? null : this.readable(row);
      // A sealed response the process cannot open (sealed under an encryption key since
      // replaced, docs/api.md "Secrets") is lost like an expired one: the request runs again.
      if (row.expires_at <= now || abandoned || body === undefined) {
        // Only the row read above: a request that claimed the key meanwhile keeps its claim.
        await this.keys
          .createQueryBuilder()
          .delete()
          .where('owner_id = :ownerId AND idempotency_key = :key AND created_at = :createdAt', {
            ownerId,
            key,
            createdAt: dateParam(this.keys, 'created_at', row.created_at),
          })
          .execute();
        continue;
      }
      if (row.fingerprint !== fingerprint) return { kind: 'mismatch' };
      if (row.state === 'running' || row.response_status === null) return { kind: 'running' };
      return {
        kind: 'replay',
        status: row.response_status,
        body: JSON.parse(body ?? 'null') as unknown,
      };
    }
    // Three claims lost in a row to other requests with this key: it is in use right now.
    return { kind: 'running' };
  }

  /**
   * Keeps the response of the request that claimed `key` (2xx and 4xx), or frees the key (5xx).
   * A response that holds a credential (`sealed`) is kept encrypted, or not kept (the key freed)
   * when no sealer is registered.
   */
  async finish(
    ownerId: string,
    key: string,
    status: number,
    body: unknown,
    sealed = false,
  ): Promise<void> {
    const where = { owner_id: ownerId, idempotency_key: key };
    if (status >= 500 || (sealed && !this.sealer)) {
      await this.keys.delete(where);
      return;
    }
    const text = JSON.stringify(body ?? null);
    await this.keys.update(where, {
      state: 'done',
      response_status: status,
      response_body:
        sealed && this.sealer ? `${SEALED_PREFIX}${this.sealer.seal(text, ownerId, key)}` : text,
    });
  }

  /** A kept body as JSON text, opened when it was sealed; undefined when it cannot be opened. */
  private readable(row: IdempotencyKeyEntity): string | null | undefined {
    const body = row.response_body;
    if (!body?.startsWith(SEALED_PREFIX)) return body;
    if (!this.sealer) throw new Error('a sealed response is kept but no sealer is registered');
    try {
      return this.sealer.open(body.slice(SEALED_PREFIX.length), row.owner_id, row.idempotency_key);
    } catch {
      return undefined;
    }
  }

  /** Deletes keys past their 24 hours (the `maintenance` task of `IdempotencyPurge`). */
  async purgeExpired(now = new Date()): Promise<number> {
    try {
      const result = await this.keys
        .createQueryBuilder()
        .delete()
        .where('expires_at < :now', { now: dateParam(this.keys, 'expires_at', now) })
        .execute();
      return result.affected ?? 0;
    } catch (error) {
      this.logger.warn({ err: loggableError(error) }, 'purging expired idempotency keys failed');
      return 0;
    }
  }

  private async claim(
    ownerId: string,
    key: string,
    fingerprint: string,
    now: Date,
  ): Promise<boolean> {
    try {
      await this.keys.insert({
        owner_id: ownerId,
        idempotency_key: key,
        fingerprint,
        state: 'running',
        response_status: null,
        response_body: null,
        created_at: now,
        expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}
