import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { loggableError } from '../common/errors/loggable-error';
import { SecretRepository, type NamedSecret } from './secret.repository';

/** `last_used_at` is written at most this often per secret: using a secret stays a read. */
export const LAST_USED_GRANULARITY_MS = 60_000;

/** How often the uses recorded by `SecretUseStamps` are written. */
export const SECRET_USE_STAMP_INTERVAL_MS = 5_000;

/** Names at most listed by the warning of a failed write (the count is always given). */
const LOGGED_NAMES = 20;

const keyOf = (userId: string, name: string) => `${userId}\u0000${name}`;

/**
 * `last_used_at` of the secrets used by requests resolved from values read earlier (the routing
 * table's, for inbound lookups), which must make no statement of their own. A use is recorded in
 * memory (`used`); every `SECRET_USE_STAMP_INTERVAL_MS` one UPDATE stamps every secret due, and a
 * secret this process stamped less than `LAST_USED_GRANULARITY_MS` ago is not due (nor, in the
 * statement, a row another process stamped in that time). A write that fails is reported and
 * tried again at the next interval; the uses are written at shutdown too (`flush`).
 */
@Injectable()
export class SecretUseStamps implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(SecretUseStamps.name);
  /** Uses recorded and not written yet, by `keyOf`. */
  private readonly due = new Map<string, NamedSecret>();
  /** When this process last stamped each secret (epoch ms), by `keyOf`; older ones are dropped. */
  private readonly stamped = new Map<string, number>();
  /** The writes asked for, one after the other. */
  private writes: Promise<void> = Promise.resolve();
  private writing = false;
  private timer?: NodeJS.Timeout;

  constructor(private readonly secrets: SecretRepository) {}

  onModuleInit(): void {
    this.timer = setInterval(() => {
      // A write still under way (a slow database) is not queued behind.
      if (!this.writing) void this.flush();
    }, SECRET_USE_STAMP_INTERVAL_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  /** Records that `userId`'s secrets `names` were used now; no I/O, never throws. */
  used(userId: string, names: readonly string[]): void {
    if (!names.length) return;
    const now = Date.now();
    for (const name of names) {
      const key = keyOf(userId, name);
      const last = this.stamped.get(key);
      if (last !== undefined && now - last < LAST_USED_GRANULARITY_MS) continue;
      this.due.set(key, { userId, name });
    }
  }

  /** Writes the stamps due, after any write under way; never rejects (a failure stays due). */
  flush(): Promise<void> {
    this.writes = this.writes.then(() => this.write());
    return this.writes;
  }

  private async write(): Promise<void> {
    if (!this.due.size) return;
    const batch = new Map(this.due);
    this.due.clear();
    const now = new Date();
    this.writing = true;
    try {
      const staleBefore = new Date(now.getTime() - LAST_USED_GRANULARITY_MS);
      await this.secrets.touchNamed([...batch.values()], now, staleBefore);
      this.forgetOlderThan(staleBefore.getTime());
      for (const key of batch.keys()) {
        this.stamped.set(key, now.getTime());
        // Used again while written: the stamp just written is within the granularity of that use.
        this.due.delete(key);
      }
    } catch (error) {
      for (const [key, secret] of batch) this.due.set(key, secret);
      this.logger.warn(
        {
          err: loggableError(error),
          secrets: batch.size,
          names: [...batch.values()]
            .slice(0, LOGGED_NAMES)
            .map(({ userId, name }) => ({ user_id: userId, secret_name: name })),
        },
        `could not stamp last_used_at of secrets; tried again in ${SECRET_USE_STAMP_INTERVAL_MS} ms`,
      );
    } finally {
      this.writing = false;
    }
  }

  /** Keeps `stamped` to the secrets stamped within the granularity. */
  private forgetOlderThan(before: number): void {
    for (const [key, at] of this.stamped) if (at < before) this.stamped.delete(key);
  }
}
