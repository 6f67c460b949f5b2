import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleDestroy } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import { failFastRedis, type RedisConnection } from '../redis/redis-connection';
import { withTimeout } from '../time/with-timeout';

/** How long a request waits for a stamp before it reads the database instead. */
const READ_TIMEOUT_MS = 250;
/** How long a write waits for its new stamp to be recorded. */
const RENEW_TIMEOUT_MS = 1000;

/**
 * One stamp per named set of cached views, shared by every process: a random token in Redis under
 * `<QUEUE_PREFIX>:view-stamp:<name>`, replaced by a new one on every change. A view cached under
 * a stamp is current while the stamp is; random tokens (not a counter) keep that true when Redis
 * restarts empty. Without Redis the service is one process and the stamps live in memory.
 */
@Injectable()
export class VersionStamps implements OnModuleDestroy {
  private readonly redis?: RedisConnection;
  private readonly keyPrefix: string;
  private readonly local = new Map<string, string>();
  /** Stamps whose renewal failed: renewed as soon as Redis answers again, not trusted until then. */
  private readonly owed = new Set<string>();
  private readonly settling = new Set<string>();

  constructor(config: ConfigService<AppConfig, true>) {
    const target = config.get('queue.redis', { infer: true });
    this.keyPrefix = `${config.get('queue.prefix', { infer: true })}:view-stamp:`;
    if (!target) return;
    // Every failure is a null read (the caller reads the database) or a rejected renewal. Each
    // stamp is one key (GET/SET), so on a cluster each lives on whichever node owns its slot.
    this.redis = failFastRedis(target);
    this.redis.on('ready', () => {
      for (const name of this.owed) void this.settle(name);
    });
  }

  /**
   * The current stamp of `name`, or null when there is none to rely on (Redis not answering, or
   * no stamp yet: one is set for the next read). On null the caller must not use its cache.
   */
  async read(name: string): Promise<string | null> {
    if (!this.redis) return this.localStamp(name);
    if (this.owed.has(name)) {
      void this.settle(name);
      return null;
    }
    const key = this.keyPrefix + name;
    try {
      const stamp = await withTimeout(
        this.redis.get(key),
        READ_TIMEOUT_MS,
        () => new Error(`view stamp ${name}: no answer within ${READ_TIMEOUT_MS} ms`),
      );
      if (stamp) return stamp;
      await this.redis.set(key, randomUUID(), 'NX');
    } catch {
      // Read the database this time.
    }
    return null;
  }

  /**
   * Replaces `name`'s stamp: every view cached under an earlier one is stale, in every process.
   * When Redis does not take it, rejects, and the renewal is owed: made again once Redis answers
   * (on reconnect, or at the next read), and until then this process reads no stamp of `name`.
   */
  async renew(name: string): Promise<void> {
    if (!this.redis) {
      this.local.set(name, randomUUID());
      return;
    }
    try {
      await this.set(name);
    } catch (error) {
      this.owed.add(name);
      throw error;
    }
  }

  onModuleDestroy(): void {
    this.redis?.disconnect();
  }

  private set(name: string): Promise<unknown> {
    return withTimeout(
      this.redis!.set(this.keyPrefix + name, randomUUID()),
      RENEW_TIMEOUT_MS,
      () => new Error(`view stamp ${name}: not renewed within ${RENEW_TIMEOUT_MS} ms`),
    );
  }

  /** Makes an owed renewal (one attempt at a time): on reconnect, and on each read meanwhile. */
  private async settle(name: string): Promise<void> {
    if (this.settling.has(name)) return;
    this.settling.add(name);
    try {
      await this.set(name);
      this.owed.delete(name);
    } catch {
      // Still owed.
    } finally {
      this.settling.delete(name);
    }
  }

  private localStamp(name: string): string {
    let stamp = this.local.get(name);
    if (!stamp) {
      stamp = randomUUID();
      this.local.set(name, stamp);
    }
    return stamp;
  }
}
