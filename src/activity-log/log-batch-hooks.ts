import { Injectable } from '@nestjs/common';
import type { Statement } from '../database/one-trip';
import type { LogRow } from './group-commit.types';

/**
 * What a module above the activity log does with the entries written: statements that run in
 * the batch's own transaction, after its INSERT (as the counters do), and a word once an entry
 * is committed. The activity log knows none of them: each registers at start-up.
 */
export interface LogBatchHook {
  statements(rows: readonly LogRow[]): Statement[];
  /** Called once the entry is committed; must not throw and is not awaited. */
  committed(row: LogRow): void;
}

@Injectable()
export class LogBatchHooks {
  private readonly hooks: LogBatchHook[] = [];

  register(hook: LogBatchHook): void {
    this.hooks.push(hook);
  }

  statements(rows: readonly LogRow[]): Statement[] {
    return this.hooks.flatMap((hook) => hook.statements(rows));
  }

  committed(row: LogRow): void {
    for (const hook of this.hooks) hook.committed(row);
  }
}
