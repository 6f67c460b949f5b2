import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// Text
// ---------------------------------------------------------------------------------------------

/**
 * Emoji with a presentation selector (U+FE0F) are two code points, and text limits count code
 * points (as MySQL's VARCHAR does), so these generators, which count one unit per character, keep
 * them out by default; the limit behaviour with them is pinned in
 * test/fuzz/regressions.fuzz.e2e-spec.ts. `FUZZ_FE0F=1` mixes them in (expect over-limit refusals).
 */
export const WITH_PRESENTATION_SELECTORS = process.env.FUZZ_FE0F === '1';

/**
 * Characters as a user counts them (and as class-validator's length rules count them: a code
 * point). Mixes ASCII, accented and CJK text, right-to-left scripts and marks, astral emoji, NUL
 * and other control characters, so storage and read-back see every kind of UTF-8.
 */
export const userChar: fc.Arbitrary<string> = fc.oneof(
  { weight: 6, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom('é', 'ß', 'ø', 'ñ', '中', '文', 'あ', 'ह', 'ক', 'Ж') },
  { weight: 2, arbitrary: fc.constantFrom('א', 'ב', 'ש', 'ع', 'ر', 'ب', 'ي', '\u200f', '\u202e') },
  { weight: 2, arbitrary: fc.constantFrom('😀', '🎉', '🚀', '👍', '𝄞', '🇮') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      ...(WITH_PRESENTATION_SELECTORS ? ['❤️', '☎️', '✔️'] : ['❤', '☎', '✔']),
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom('\u0000', '\t', '\n', '\u001b', '\u007f') },
);

/** A string of `min`-`max` user characters. */
export function text(min: number, max: number): fc.Arbitrary<string> {
  return fc.array(userChar, { minLength: min, maxLength: max }).map((chars) => chars.join(''));
}

/**
 * A string at one of the edges of `min`-`max`: exactly min, exactly max, or random in between;
 * sometimes made only of emoji so its UTF-16 and byte lengths are far above `max`.
 */
export function boundedText(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: text(min, Math.min(max, min + 40)) },
    { weight: 1, arbitrary: text(min, min) },
    { weight: 1, arbitrary: text(max, max) },
    {
      weight: 1,
      arbitrary: fc.constant((WITH_PRESENTATION_SELECTORS ? '❤️' : '❤').repeat(Math.max(min, max))),
    },
    { weight: 1, arbitrary: fc.constant('😀'.repeat(Math.max(min, max))) },
  );
}

/** A string that passes a plain `IsString` + printable check (identifiers, voice ids). */
export const plainWord = (min: number, max: number) =>
  fc.string({
    unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_'),
    minLength: min,
    maxLength: max,
  });

/** Lower-case snake_case `^[a-z][a-z0-9_]*$`, 1-64 characters. */
export const snakeName = (maxLength = 64): fc.Arbitrary<string> =>
  fc
    .tuple(
      fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz'),
      fc.string({
        unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789_'),
        maxLength: maxLength - 1,
      }),
    )
    .map(([first, rest]) => first + rest)
    .filter((name) => name !== 'end_call');

let uniqueCounter = 0;
/** A value never generated before in any run: `<prefix>-<time>-<pid>-<n>`. */
export function uniqueSuffix(): string {
  uniqueCounter += 1;
  return `${Date.now().toString(36)}${process.pid.toString(36)}${uniqueCounter.toString(36)}`;
}

/**
 * A dialled number whose digits are unique across runs and processes (one active mapping per
 * normalized number, database-wide): 91, then 16 digits from the clock, the pid and a counter, then
 * formatted in one of the ways people write numbers.
 */
export function uniquePhoneDigits(): string {
  uniqueCounter += 1;
  // 9 digits, the first never 0: after 91 a 0 is India's trunk prefix, which normalizing drops.
  const time = 1e8 + (Date.now() % 9e8);
  const pid = process.pid % 1000; // 3 digits
  // 91 in front, so every spelling of it (with or without +) is the same Indian number.
  return `91${time}${String(pid).padStart(3, '0')}${String(uniqueCounter % 10_000).padStart(4, '0')}`;
}

export const phoneFormat: fc.Arbitrary<(digits: string) => string> = fc.constantFrom(
  (d: string) => d,
  (d: string) => `+${d}`,
  (d: string) => `+${d.slice(0, 2)} ${d.slice(2, 6)} ${d.slice(6)}`,
  (d: string) => `(${d.slice(0, 3)}) ${d.slice(3, 7)}-${d.slice(7)}`,
  (d: string) => `${d.slice(0, 5)}.${d.slice(5)}`,
);
