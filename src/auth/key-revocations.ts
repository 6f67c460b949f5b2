import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/app-config';
import { InvalidationFeed } from '../common/cache/invalidation-feed';

/** `hash` of the revoked key, or null: forget every key (the feed may have missed messages). */
export type RevocationListener = (hash: string | null) => void;

/**
 * Tells every API process that a key was revoked, so each can drop it from its in-memory key
 * cache at once (channel `<QUEUE_PREFIX>:auth:revoked-keys`). A process that is not `live` must
 * not answer from its key cache.
 */
@Injectable()
export class KeyRevocations extends InvalidationFeed {
  constructor(config: ConfigService<AppConfig, true>) {
    super(config, 'auth:revoked-keys', 'KeyRevocations');
  }

  onRevoked(listener: RevocationListener): void {
    this.listen(listener);
  }

  /** Announces a revoked key (its SHA-256) to this process and, with Redis, to every other one. */
  publish(hash: string): Promise<void> {
    return this.announce(hash);
  }
}
