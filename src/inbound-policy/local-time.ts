import type { Weekday } from './policy.types';

/*
 * Wall-clock time in an IANA zone, from the runtime's own time-zone data (`Intl`): no offset is
 * written here, so daylight-saving changes are whatever the zone's rules say.
 */

/** A moment as a clock on the wall of its zone reads it. */
export interface LocalTime {
  /** `YYYY-MM-DD`. */
  date: string;
  weekday: Weekday;
  /** Minutes since local midnight (0-1439). */
  minutes: number;
  /** `HH:MM`. */
  hhmm: string;
  /** Local minus UTC, in minutes. */
  offset: number;
}

const WEEKDAY_OF: Record<string, Weekday> = {
  Mon: 'mon',
  Tue: 'tue',
  Wed: 'wed',
  Thu: 'thu',
  Fri: 'fri',
  Sat: 'sat',
  Sun: 'sun',
};

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let format = formatters.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      weekday: 'short',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(timeZone, format);
  }
  return format;
}

/** Whether the runtime knows `timeZone` as an IANA zone name (`Europe/Berlin`, `UTC`). */
export function isKnownTimeZone(timeZone: string): boolean {
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]*$/.test(timeZone)) return false;
  try {
    formatterOf(timeZone);
    return true;
  } catch {
    return false;
  }
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** `instant` (epoch ms) on the wall of `timeZone`. */
export function localTimeOf(instant: number, timeZone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const { type, value } of formatterOf(timeZone).formatToParts(new Date(instant)))
    parts[type] = value;
  const [y, mo, d, h, mi, s] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((k) =>
    Number(parts[k]),
  );
  const wall = Date.UTC(y, mo - 1, d, h, mi, s);
  const offset = Math.round((wall - (instant - (instant % 1000))) / 60_000);
  return {
    date: `${y}-${pad(mo)}-${pad(d)}`,
    weekday: WEEKDAY_OF[parts.weekday],
    minutes: h * 60 + mi,
    hhmm: `${pad(h)}:${pad(mi)}`,
    offset,
  };
}

/**
 * The instant the wall of `timeZone` reads `date` at `minutes` past midnight (1440: the next
 * midnight). A time the clocks skip (spring forward) is read after the change, as 02:30 becomes
 * 03:30; a time they show twice (fall back) is its first showing.
 */
export function instantOf(date: string, minutes: number, timeZone: string): number {
  const [y, mo, d] = date.split('-').map(Number);
  const wall = Date.UTC(y, mo - 1, d, 0, minutes);
  // The zone's offsets a day and a half either side: one, or the two of a change near `wall`.
  const offsets = new Set(
    [wall - 129_600_000, wall + 129_600_000].map((t) => localTimeOf(t, timeZone).offset),
  );
  const distinct = [...offsets].map((offset) => wall - offset * 60_000).sort((a, b) => a - b);
  const exact = distinct.filter((t) => wallOf(t, timeZone) === wall);
  if (exact.length) return exact[0];
  // In a gap: the offset from before the change puts it after the change.
  return distinct[distinct.length - 1];
}

function wallOf(instant: number, timeZone: string): number {
  return instant + localTimeOf(instant, timeZone).offset * 60_000;
}

/** `instant` as ISO 8601 with the zone's offset, e.g. `2026-03-30T09:00:00+02:00`. */
export function isoInZone(instant: number, timeZone: string): string {
  const local = localTimeOf(instant, timeZone);
  const sign = local.offset < 0 ? '-' : '+';
  const abs = Math.abs(local.offset);
  const seconds = pad(Math.floor((instant % 60_000) / 1000));
  return `${local.date}T${local.hhmm}:${seconds}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/** The calendar day after `date` (`YYYY-MM-DD`). */
export function nextDate(date: string): string {
  const [y, mo, d] = date.split('-').map(Number);
  return new Date(Date.UTC(y, mo - 1, d + 1)).toISOString().slice(0, 10);
}

/** The weekday of a calendar date. */
export function weekdayOfDate(date: string): Weekday {
  const [y, mo, d] = date.split('-').map(Number);
  const index = new Date(Date.UTC(y, mo - 1, d)).getUTCDay();
  return (['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const)[index];
}
