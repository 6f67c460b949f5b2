import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import Redis from 'ioredis';
import { redisRetryStrategy } from '../queue/redis-retry';

/** `hash` of the revoked key, or null: forget every key (the feed may have missed messages). */
export type RevocationListener = (hash: string | null) => void;

/**
 * Tells every API process that a key was revoked, so each can drop it from its in-memory key
 * cache at once. With Redis: a pub/sub channel under QUEUE_PREFIX. A process whose subscription is
 * down is not `live`: it must not answer from its cache until the subscription is back (and on
 * the way back it forgets every key, since it may have missed revocations meanwhile). Without
 * Redis the service is one process, and the revoking process's own listeners are all there is.
 */
@Injectable()
export class KeyRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('KeyRevocations');
  private readonly listeners: RevocationListener[] = [];
  private readonly redisUrl: string | null;
  private readonly channel: string;
  private publisher?: Redis;
  private subscriber?: Redis;
  private subscribed = false;

  constructor(config: ConfigService) {
    this.redisUrl = config.get<string | null>('queue.redisUrl') ?? null;
    this.channel = `${config.get<string>('queue.prefix', 'vac')}:auth:revoked-keys`;
  }

  /** Whether revocations made by other processes reach this one right now. */
  get live(): boolean {
    return !this.redisUrl || this.subscribed;
  }

  onRevoked(listener: RevocationListener): void {
    this.listeners.push(listener);
  }

  onModuleInit(): void {
    if (!this.redisUrl) return;
    const options = { retryStrategy: redisRetryStrategy, maxRetriesPerRequest: 1 };
    this.publisher = new Redis(this.redisUrl, { ...options, enableOfflineQueue: false });
    this.subscriber = new Redis(this.redisUrl, options);
    this.publisher.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, hash: string) => this.emit(hash));
    this.subscriber.on('close', () => {
      this.subscribed = false;
    });
    // ioredis subscribes again by itself after a reconnect; until then the cache is bypassed.
    this.subscriber.on('ready', () => {
      if (this.subscribed) return;
      void this.subscriber
        ?.subscribe(this.channel)
        .then(() => {
          this.emit(null);
          this.subscribed = true;
        })
        .catch(() => undefined);
    });
  }

  onModuleDestroy(): void {
    this.subscriber?.disconnect();
    this.publisher?.disconnect();
  }

  /** Announces a revoked key (its SHA-256) to this process and, with Redis, to every other one. */
  async publish(hash: string): Promise<void> {
    this.emit(hash);
    if (!this.publisher) return;
    try {
      await this.publisher.publish(this.channel, hash);
    } catch (error) {
      // Other processes forget the key when their cache entry expires (AuthService's TTL).
      this.logger.warn({ err: error }, 'could not announce a key revocation to other processes');
    }
  }

  private emit(hash: string | null): void {
    for (const listener of this.listeners) listener(hash);
  }
}
