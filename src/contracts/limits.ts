/**
 * Limits that are part of the call stack's contract and that more than one module checks: a
 * call's room and numbers arrive in request bodies, query strings, path parameters and job data
 * alike, and the webhook timeouts set how long a job may run. The shipped producer clients load
 * this file: it imports nothing.
 */

/** A real-time room name (the `activity_logs.room_name` column is VARCHAR(255)). */
export const ROOM_NAME_MAX_LENGTH = 255;
/** A caller number as the telephony bridge parsed it, formatting included. */
export const CALLER_NUMBER_MAX_LENGTH = 64;
/** A dialled number as sent, formatting included (`+91 80 1234 5678`). */
export const PHONE_NUMBER_MAX_LENGTH = 40;
/** A dialled number is routable when it has at least this many digits. */
export const PHONE_MIN_DIGITS = 5;
/** E.164 allows 15; a little room for access codes, and the normalized column holds 32. */
export const PHONE_MAX_DIGITS = 20;

/** A strategy's context webhook: `strategy_config.timeout_seconds` bounds and default. */
export const STRATEGY_TIMEOUT_SECONDS = { min: 0.5, max: 10, default: 2 } as const;
/** The longest `timeout_seconds` a tool's webhook may be given. */
export const MAX_WEBHOOK_TIMEOUT_SECONDS = 60;

/**
 * Bull's own default key prefix: a producer that creates `new Queue(name, REDIS_URL)` with no
 * options is served. `QUEUE_PREFIX` overrides it; producers then pass `{ prefix }`.
 */
export const DEFAULT_QUEUE_PREFIX = 'bull';
