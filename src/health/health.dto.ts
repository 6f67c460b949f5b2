export class HealthDto {
  /** `ok`, `degraded` (Redis down: CRUD works, jobs do not) or `error` (database down). */
  status: 'ok' | 'degraded' | 'error';
  /**
   * Per dependency: `{status: 'up'|'down', ...}`; `redis.mode` is `embedded` without Redis,
   * `redis` on one server, `cluster` on a Redis Cluster (with each master node's state); each
   * MySQL read replica is `database_replica_<n>` (`host`, and `lag_seconds` where readable).
   */
  details: Record<string, { status: string }>;
}

export class LivenessDto {
  /** Always `ok`: the process answers. */
  status: 'ok';
}
