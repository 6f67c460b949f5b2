import type { Provider } from '@nestjs/common';
import { LOG_RETENTION_PROVIDERS } from './activity-log/log-retention.scheduler';
import { INBOUND_CONTEXT_LOOKUP_PROVIDERS } from './inbound-context/inbound-context-lookup.processor';
import { END_CALL_WEBHOOK_PROVIDERS } from './assistant/end-call-webhook.processor';
import { TOOL_CALL_PROVIDERS } from './tool/tool-call.processor';

/**
 * Every queue processor. Registered only where jobs are consumed: the worker process, or the API
 * process when it runs all roles (always the case in embedded mode).
 */
export const WORKER_PROCESSORS: Provider[] = [
  ...INBOUND_CONTEXT_LOOKUP_PROVIDERS,
  ...TOOL_CALL_PROVIDERS,
  ...END_CALL_WEBHOOK_PROVIDERS,
  ...LOG_RETENTION_PROVIDERS,
];
