import fc from 'fast-check';

// ---------------------------------------------------------------------------------------------
// Run configuration
// ---------------------------------------------------------------------------------------------

/** Cases per property: `FUZZ_RUNS`, default 25. */
export function fuzzRuns(defaultRuns = 25): number {
  const raw = Number(process.env.FUZZ_RUNS);
  return Number.isInteger(raw) && raw > 0 ? raw : defaultRuns;
}

/** `fc.assert` parameters: runs from the environment, a fixed seed when `FUZZ_SEED` is set. */
export function fuzzParams(runs = fuzzRuns()): fc.Parameters<unknown> {
  const seed = Number(process.env.FUZZ_SEED);
  return {
    numRuns: runs,
    ...(Number.isInteger(seed) ? { seed } : {}),
  };
}

/** Jest timeout for a property of `runs` cases that each cost about `msPerCase`. */
export function fuzzTimeout(msPerCase = 150, runs = fuzzRuns()): number {
  return Math.max(30_000, runs * msPerCase * 3);
}
