import { Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/app-config';
import type { RedisTarget } from '../../config/redis-target';
import {
  connectRedis,
  redisRetryStrategy,
  type RedisConnection,
} from '../redis/redis-connection';
import { loggableError } from '../errors/loggable-error';

/** A message naming what changed, or null: forget everything (the feed may have missed messages). */
export type InvalidationListener = (message: string | null) => void;

/**
 * Tells every process that something it may hold in memory changed, so each can drop it at once.
 * With Redis: a pub/sub channel under QUEUE_PREFIX (`<prefix>:<topic>`); on a cluster PUBLISH
 * reaches the subscribers of every node, so the subscription may live on any of them. A process whose
 * subscription is down is not `live`: it must not answer from its cache until the subscription is
 * back (and on the way back its listeners forget everything, since it may have missed messages
 * meanwhile). Without Redis the service is one process, and the publishing process's own listeners
 * are all there is. Subclasses name the topic and describe their messages.
 */
export abstract class InvalidationFeed implements OnModuleInit, OnModuleDestroy {
  private readonly logger: Logger;
  private readonly listeners: InvalidationListener[] = [];
  private readonly redis: RedisTarget | null;
  private readonly channel: string;
  private publisher?: RedisConnection;
  private subscriber?: RedisConnection;
  private subscribed = false;

  protected constructor(config: ConfigService<AppConfig, true>, topic: string, name: string) {
    this.logger = new Logger(name);
    this.redis = config.get('queue.redis', { infer: true });
    this.channel = `${config.get('queue.prefix', { infer: true })}:${topic}`;
  }

  /** Whether messages published by other processes reach this one right now. */
  get live(): boolean {
    return !this.redis || this.subscribed;
  }

  protected listen(listener: InvalidationListener): void {
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

  /** Announces `message` to this process and, with Redis, to every other one. */
  protected async announce(message: string): Promise<void> {
    this.emit(message);
    if (!this.publisher) return;
    try {
      await this.publisher.publish(this.channel, message);
    } catch (error) {
      // Other processes drop the entry when it expires (each cache's TTL is the backstop).
      this.logger.warn(
        { err: loggableError(error) },
        'could not announce a change to other processes',
      );
    }
  }

  private emit(message: string | null): void {
    for (const listener of this.listeners) listener(message);
  }
}
