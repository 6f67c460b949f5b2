/** Kept for importers of the earlier module name: the connection helpers live in redis-connection. */
export { failFastRedis, redisRetryStrategy } from './redis-connection';
