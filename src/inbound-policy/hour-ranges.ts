/** An opening range of one day, in minutes since local midnight: `[start, end)`, end at most 1440. */
export type MinuteRange = [number, number];

const RANGE = /^(\d{2}):(\d{2})-(\d{2}):(\d{2})$/;

/** `"HH:MM-HH:MM"` as minutes (`"00:00-24:00"` is the whole day); null when it is not one. */
export function parseHourRange(text: string): MinuteRange | null {
  const match = RANGE.exec(text);
  if (!match) return null;
  const [h1, m1, h2, m2] = match.slice(1).map(Number);
  if (h1 > 23 || m1 > 59 || m2 > 59 || h2 > 24 || (h2 === 24 && m2 > 0)) return null;
  return [h1 * 60 + m1, h2 * 60 + m2];
}

/** What is wrong with one day's ranges: the index of the first range at fault, and why; else null. */
export function hourRangesProblem(
  ranges: readonly string[],
): { index: number; message: string } | null {
  const parsed: { index: number; range: MinuteRange }[] = [];
  for (const [index, text] of ranges.entries()) {
    const range = typeof text === 'string' ? parseHourRange(text) : null;
    if (!range)
      return {
        index,
        message: 'must be a range "HH:MM-HH:MM" of times 00:00-24:00, e.g. "09:00-17:30"',
      };
    if (range[0] >= range[1]) return { index, message: 'must end after it starts' };
    parsed.push({ index, range });
  }
  const sorted = [...parsed].sort((a, b) => a.range[0] - b.range[0]);
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].range[0] < sorted[i - 1].range[1]) {
      const later = Math.max(sorted[i].index, sorted[i - 1].index);
      const other = Math.min(sorted[i].index, sorted[i - 1].index);
      return { index: later, message: `must not overlap range [${other}] of the same day` };
    }
  }
  return null;
}

/** A day's valid ranges, in order of their start. */
export function rangesOf(ranges: readonly string[] | undefined | null): MinuteRange[] {
  return (ranges ?? [])
    .map(parseHourRange)
    .filter((range): range is MinuteRange => range !== null)
    .sort((a, b) => a[0] - b[0]);
}
