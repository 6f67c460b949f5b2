import type { OnModuleDestroy } from '@nestjs/common';
import { GuardedRedis } from '../../common/redis/guarded-redis';
import { sharedFailFastRedis, type SharedRedis } from '../../common/redis/redis-connection';
import type { RedisTarget } from '../../config/redis-target';
import { BUILT, RoutingStore, TICKETS, type RoutingBatch, type RoutingRead } from './routing-store';
import { withRoutingScript, type RoutingRedis } from './routing-script';

/** How many fields one sweep step looks at. */
const SWEEP_COUNT = 1000;

/**
 * Shared by every process: the hash `<QUEUE_PREFIX>:routing`. Lookups read it on a fail-fast
 * connection (Redis down: the lookup falls back to the database at once). Writes go on a connection
 * that waits for Redis only while it first connects: once it has lost Redis, writes fail at once
 * until it is back (a configuration write must not wait on Redis), and `onRecovered` listeners then
 * rebuild what they could not write.
 */
export class RedisRoutingStore extends RoutingStore implements OnModuleDestroy {
  private readonly shared: SharedRedis;
  private readonly reader: RoutingRedis;
  private readonly writer: GuardedRedis;
  /** The writer's connection with the script defined (reach it through `written()`). */
  private readonly writes: RoutingRedis;
  private readonly key: string;

  constructor(target: RedisTarget, prefix: string) {
    super();
    this.key = `${prefix}:routing`;
    this.shared = sharedFailFastRedis(target);
    this.reader = withRoutingScript(this.shared.connection);
    this.writer = new GuardedRedis(target, 'the routing table is not written');
    this.writes = withRoutingScript(this.writer.connection());
  }

  override onRecovered(listener: () => void): void {
    this.writer.onRecovered(listener);
  }

  async read(by: 'id' | 'number', key: string): Promise<RoutingRead> {
    const [built, entry, ...pairs] = await this.reader.routingStep(
      this.key,
      'read',
      by,
      key,
      BUILT,
    );
    const records = new Map<string, string>();
    for (let i = 0; i + 1 < pairs.length; i += 2)
      records.set(String(pairs[i]), String(pairs[i + 1]));
    return { entry: typeof entry === 'string' ? entry : null, records, built: built === 1 };
  }

  async ticket(): Promise<number> {
    return this.writer.connection().hincrby(this.key, TICKETS, 1);
  }

  async write(batch: RoutingBatch): Promise<void> {
    if (!batch.entries.length && !batch.records.size) return;
    await this.written().routingStep(
      this.key,
      'write',
      JSON.stringify(batch.entries.map((entry) => JSON.stringify(entry))),
      JSON.stringify(Object.fromEntries(batch.records)),
    );
  }

  async sweep(before: number): Promise<void> {
    let cursor = '0';
    do {
      cursor = String(
        await this.written().routingStep(
          this.key,
          'sweep',
          cursor,
          before,
          SWEEP_COUNT,
          BUILT,
          TICKETS,
        ),
      );
    } while (cursor !== '0');
    await this.writer.connection().hset(this.key, BUILT, new Date().toISOString());
  }

  /** The writer's connection, or an error at once while Redis is lost (see GuardedRedis). */
  private written(): RoutingRedis {
    this.writer.connection();
    return this.writes;
  }

  onModuleDestroy(): void {
    this.shared.release();
    this.writer.disconnect();
  }
}
