/**
 * Bull's own default key prefix: a producer that creates `new Queue(name, REDIS_URL)` with no
 * options is served. `QUEUE_PREFIX` overrides it; producers then pass `{ prefix }`.
 */
export const DEFAULT_QUEUE_PREFIX = 'bull';
