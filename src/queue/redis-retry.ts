/** Reconnect delay after the n-th failed attempt: 200 ms more each time, at most 2 s (ioredis' default backs off towards 20 s). */
export const redisRetryStrategy = (attempt: number): number => Math.min(attempt * 200, 2000);
