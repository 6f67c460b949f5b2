import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import type { RedisTarget } from '../config/redis-target';
import { loggableError } from '../common/errors/loggable-error';
import {
  connectRedis,
  redisRetryStrategy,
  type RedisConnection,
} from '../common/redis/redis-connection';

/** `hash` of the revoked key, or null: forget every key (the feed may have missed messages). */
export type RevocationListener = (hash: string | null) => void;

/**
 * Tells every API process that a key was revoked, so each can drop it from its in-memory key
 * cache at once. With Redis: the pub/sub channel `<QUEUE_PREFIX>:auth:revoked-keys`; on a cluster
 * PUBLISH reaches the subscribers of every node, so the subscription may live on any of them. A
 * process whose subscription is down is not `live`: it must not answer from its key cache until
 * the subscription is back (and on the way back its listeners forget every key, since it may have
 * missed messages meanwhile). Without Redis the service is one process, and the publishing
 * process's own listeners are all there is.
 */
@Injectable()
export class KeyRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(KeyRevocations.name);
  private readonly listeners: RevocationListener[] = [];
  private readonly redis: RedisTarget | null;
  private readonly channel: string;
  private publisher?: RedisConnection;
  private subscriber?: RedisConnection;
  private subscribed = false;

  constructor(config: ConfigService<AppConfig, true>) {
    this.redis = config.get('queue.redis', { infer: true });
    this.channel = `${config.get('queue.prefix', { infer: true })}:auth:revoked-keys`;
  }

  /** Whether messages published by other processes reach this one right now. */
  get live(): boolean {
    return !this.redis || this.subscribed;
  }

  onRevoked(listener: RevocationListener): void {
    this.listeners.push(listener);
  }

  onModuleInit(): void {
    if (!this.redis) return;
    const options = { retryStrategy: redisRetryStrategy, maxRetriesPerRequest: 1 };
    this.publisher = connectRedis(this.redis, { ...options, enableOfflineQueue: false });
    this.subscriber = connectRedis(this.redis, options);
    this.publisher.on('error', () => undefined);
    this.subscriber.on('error', () => undefined);
    this.subscriber.on('message', (_channel: string, message: string) => this.emit(message));
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
      // Other processes drop the key when it expires (the key cache's TTL is the backstop).
      this.logger.warn(
        { err: loggableError(error) },
        'could not announce a change to other processes',
      );
    }
  }

  private emit(hash: string | null): void {
    for (const listener of this.listeners) listener(hash);
  }
}
