import type { EnvironmentVariables } from './env.validation';

/** Rules between variables: each problem names the variable to change. */
export function crossChecks(env: EnvironmentVariables): string[] {
  const problems: string[] = [];
  const redis = Boolean(env.REDIS_URL || env.REDIS_CLUSTER_NODES);
  if (env.REDIS_URL && env.REDIS_CLUSTER_NODES)
    problems.push(
      'REDIS_CLUSTER_NODES: set either REDIS_URL (one server) or REDIS_CLUSTER_NODES, not both',
    );
  if (!redis && env.APP_ROLE && env.APP_ROLE !== 'all') {
    problems.push(
      `APP_ROLE: "${env.APP_ROLE}" needs REDIS_URL or REDIS_CLUSTER_NODES (without Redis, jobs run inside the API process)`,
    );
  }
  if (env.DATABASE_REPLICA_URLS && !env.DATABASE_URL)
    problems.push(
      'DATABASE_REPLICA_URLS: read replicas need MySQL (DATABASE_URL); the embedded SQLite file has none',
    );
  return problems;
}
