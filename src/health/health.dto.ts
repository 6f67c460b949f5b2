export class HealthDto {
  /** `ok`, `degraded` (Redis down: CRUD works, jobs do not) or `error` (database down). */
  status: 'ok' | 'degraded' | 'error';
  /** Per dependency: `{status: 'up'|'down', ...}`; `redis.mode` is `embedded` without Redis. */
  details: Record<string, { status: string }>;
}

export class LivenessDto {
  /** Always `ok`: the process answers. */
  status: 'ok';
}
