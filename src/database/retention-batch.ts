/**
 * Rows a retention purge deletes per statement (the activity log's and the audit trail's): small
 * enough that one DELETE never holds locks for long.
 */
export const RETENTION_BATCH_SIZE = 5000;
