/**
 * fast-check arbitraries for the fuzz suite (test/fuzz): generators of VALID request bodies per
 * route, and MUTATORS that turn a valid body into one the API must reject, each naming the field
 * path the 400 must point at.
 *
 * Runs per property come from `FUZZ_RUNS` (default 25, so `npm test` stays fast); `FUZZ_SEED`
 * replays a failing run (fast-check prints the seed and the shrunk counterexample on failure).
 */
export * from './run';
export * from './text';
export * from './assistant';
export * from './tool';
export * from './inbound-context';
export * from './auth-logs';
export * from './mutators';
export * from './helpers';
