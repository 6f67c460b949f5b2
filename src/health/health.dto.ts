import { ApiProperty } from '@nestjs/swagger';

/** The overall states, in the order the document lists them (not the type checker's). */
export const HEALTH_STATES = ['ok', 'degraded', 'error'] as const;

export class HealthDto {
  /** `ok`, `degraded` (Redis down: CRUD works, jobs do not) or `error` (database down). */
  @ApiProperty({ enum: HEALTH_STATES })
  status: (typeof HEALTH_STATES)[number];
  /**
   * Per dependency: `{status: 'up'|'down'|'not_used', ...}`; without Redis (embedded mode)
   * `redis` is `{status: 'not_used', mode: 'embedded'}`; `redis.mode` is
   * `redis` on one server, `cluster` on a Redis Cluster (with each master node's state); each
   * MySQL read replica is `database_replica_<n>` (`host`, and `lag_seconds` where readable).
   */
  details: Record<string, { status: string }>;
}

export class LivenessDto {
  /** Always `ok`: the process answers. */
  status: 'ok';
}
