import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import type { LogRow } from '../activity-log/group-commit.types';
import { LogBatchHooks } from '../activity-log/log-batch-hooks';
import { loggableError } from '../common/errors/loggable-error';
import { TenantEvents } from '../event-subscription/tenant-events';
import { SplitReverts, type GuardedSplit } from '../inbound-context/split-reverts';
import { failsItsRoom, splitCallOf, splitCallStatements, sqlInstant } from './guardrail-statements';

interface VariantCount {
  variant: number | string;
  assistant_version: number | string | null;
  calls: number | string;
  failed: number | string | null;
}

/**
 * The split guardrail, judged where the outcomes are recorded: the activity log's batches keep
 * each guarded call and its failure (`split_calls`, in the batch's transaction, no read on the
 * lookup's path); once an entry of a guarded split is committed, its mapping is judged off that
 * path. A variant other than the first with at least `min_lookups` calls in the window and a
 * failed share above `max_error_rate` ends the split on the control (`SplitReverts`, once).
 */
@Injectable()
export class GuardrailWatch implements OnModuleInit {
  private readonly logger = new Logger(GuardrailWatch.name);
  private readonly pending = new Set<string>();
  private readonly pendingRooms: Array<{ user_id: string; room_name: string }> = [];
  private scheduled = false;

  constructor(
    private readonly hooks: LogBatchHooks,
    private readonly splits: SplitReverts,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly events: TenantEvents,
  ) {}

  onModuleInit(): void {
    this.hooks.register({
      statements: (rows) => splitCallStatements(this.dataSource, rows),
      committed: (row) => this.committed(row),
    });
  }

  private committed(row: LogRow): void {
    const call = splitCallOf(row);
    if (call) this.pending.add(call.inbound_id);
    else if (failsItsRoom(row))
      this.pendingRooms.push({ user_id: row.user_id, room_name: row.room_name });
    else return;
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      void this.judgePending().catch((error: unknown) =>
        this.logger.warn({ err: loggableError(error) }, 'guardrail not judged'),
      );
    });
  }

  private async judgePending(): Promise<void> {
    for (const room of this.pendingRooms.splice(0)) {
      const rows: Array<{ inbound_id: string }> = await this.dataSource.query(
        'SELECT inbound_id FROM split_calls WHERE user_id = ? AND room_name = ?',
        [room.user_id, room.room_name],
      );
      for (const { inbound_id } of rows) this.pending.add(inbound_id);
    }
    const ids = [...this.pending];
    this.pending.clear();
    for (const id of ids) await this.judge(id);
  }

  /** Judges one mapping's split now; true when this call ended it. */
  async judge(inboundId: string, now = new Date()): Promise<boolean> {
    const split = await this.splits.guarded(inboundId);
    if (!split) return false;
    const since = new Date(now.getTime() - split.guardrail.window_seconds * 1000);
    const counts: VariantCount[] = await this.dataSource.query(
      'SELECT variant, assistant_version, COUNT(*) AS calls, SUM(failed) AS failed FROM split_calls ' +
        'WHERE inbound_id = ? AND started_at >= ? GROUP BY variant, assistant_version',
      [inboundId, sqlInstant(since)],
    );
    const failing = this.failingVariant(split, counts);
    if (!failing) return false;
    const reverted = await this.splits.revert(split, {
      reverted_at: now.toISOString(),
      ...failing,
    });
    if (reverted) {
      this.logger.warn(
        { inbound_id: inboundId, user_id: split.user_id, ...failing },
        'guardrail ended a split on its control',
      );
      await this.events.emit(
        split.user_id,
        'split.reverted',
        `${inboundId}\u0000${now.toISOString()}`,
        {
          inbound_id: inboundId,
          reverted_at: now.toISOString(),
          ...failing,
        },
      );
    }
    return reverted;
  }

  private failingVariant(
    split: GuardedSplit,
    counts: VariantCount[],
  ): { variant: number; error_rate: number; lookups: number } | null {
    const { max_error_rate, min_lookups } = split.guardrail;
    for (const count of counts) {
      const variant = Number(count.variant);
      const arm = split.assistant_variants[variant];
      const version = count.assistant_version === null ? null : Number(count.assistant_version);
      // The control is never judged; a count of an earlier split's arm is not this one's.
      if (variant < 1 || !arm || arm.assistant_version !== version) continue;
      const lookups = Number(count.calls);
      const errorRate = Number(count.failed ?? 0) / lookups;
      if (lookups >= min_lookups && errorRate > max_error_rate)
        return { variant, error_rate: Math.round(errorRate * 10000) / 10000, lookups };
    }
    return null;
  }
}
