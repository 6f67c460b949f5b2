/**
 * Limits that more than one module checks: a call's room and numbers arrive in request bodies,
 * query strings, path parameters and job data alike. No Nest imports, so the job contracts the
 * producer client ships can use them too.
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
