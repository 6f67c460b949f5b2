import type { Provider } from '@nestjs/common';

/**
 * Every queue processor. Registered only where jobs are consumed: the worker process, or the API
 * process when it runs all roles (always the case in embedded mode).
 */
export const WORKER_PROCESSORS: Provider[] = [];
