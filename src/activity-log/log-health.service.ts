import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import type { ErrorClass } from '../contracts/error-class';
import { parseIsoTimestamp, toIso } from '../common/time/iso';
import { ActivityLogTargetCountEntity } from './activity-log-target-count.entity';
import type { LogType } from './activity-log.entity';
import type { LogHealthDto, LogHealthTargetDto } from './dto/log-entry.dto';
import type { LogHealthQueryDto } from './dto/logs-query.dto';
import { histogramQuantile, sumTargetCounts, type TargetTotals } from './log-targets';

const HOUR_MS = 3600 * 1000;
const DEFAULT_RANGE_MS = 24 * HOUR_MS;

/**
 * `GET /logs/health`: the caller's endpoints, per URL origin, from the hourly endpoint counters
 * (a few rows per origin and hour, whatever the number of entries).
 */
@Injectable()
export class LogHealthService {
  constructor(
    @InjectRepository(ActivityLogTargetCountEntity)
    private readonly counters: Repository<ActivityLogTargetCountEntity>,
  ) {}

  async health(userId: string, query: LogHealthQueryDto, now = new Date()): Promise<LogHealthDto> {
    const to = query.to ? date(query.to) : now;
    const from = query.from ? date(query.from) : new Date(to.getTime() - DEFAULT_RANGE_MS);
    if (from > to)
      throw AppException.validation([{ field: 'from', message: 'from must not be after to' }]);
    const totals = await sumTargetCounts(
      this.counters.manager.connection,
      userId,
      from,
      to,
      query.log_type,
    );
    const startHour = Math.floor(from.getTime() / HOUR_MS) * HOUR_MS;
    const endHour = (Math.floor(to.getTime() / HOUR_MS) + 1) * HOUR_MS;
    return {
      from: toIso(new Date(startHour)),
      to: toIso(new Date(endHour)),
      targets: byOrigin(totals).sort(
        (a, b) =>
          b.errors - a.errors ||
          b.attempts - a.attempts ||
          (a.target < b.target ? -1 : a.target > b.target ? 1 : 0),
      ),
    };
  }
}

function date(value: string): Date {
  const parsed = parseIsoTimestamp(value);
  if (!parsed) throw new Error(`unparseable timestamp passed validation: ${value}`);
  return parsed;
}

/** The per-(origin, log type) totals merged into one target per origin. */
function byOrigin(totals: TargetTotals[]): LogHealthTargetDto[] {
  const merged = new Map<string, TargetTotals & { log_types: LogType[] }>();
  for (const t of totals) {
    const found = merged.get(t.origin);
    if (!found) {
      merged.set(t.origin, { ...t, log_types: [t.log_type], histogram: [...t.histogram] });
      continue;
    }
    found.log_types.push(t.log_type);
    found.attempts += t.attempts;
    found.errors += t.errors;
    for (const [cls, n] of Object.entries(t.by_error_class) as [ErrorClass, number][])
      found.by_error_class[cls] = (found.by_error_class[cls] ?? 0) + n;
    t.histogram.forEach((n, i) => (found.histogram[i] += n));
    found.latency_max_ms = Math.max(found.latency_max_ms, t.latency_max_ms);
    found.last_success_at = latest(found.last_success_at, t.last_success_at);
    found.last_error_at = latest(found.last_error_at, t.last_error_at);
  }
  return [...merged.values()].map((t) => ({
    target: t.origin,
    log_types: t.log_types.sort(),
    attempts: t.attempts,
    errors: t.errors,
    error_rate: t.attempts ? Math.round((t.errors / t.attempts) * 10_000) / 10_000 : 0,
    by_error_class: t.by_error_class,
    latency_ms: {
      p50: histogramQuantile(t.histogram, 0.5, t.latency_max_ms),
      p95: histogramQuantile(t.histogram, 0.95, t.latency_max_ms),
    },
    last_success_at: t.last_success_at && toIso(t.last_success_at),
    last_error_at: t.last_error_at && toIso(t.last_error_at),
  }));
}

function latest(a: Date | null, b: Date | null): Date | null {
  if (!a) return b;
  if (!b) return a;
  return a > b ? a : b;
}
