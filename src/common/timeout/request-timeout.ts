import { SetMetadata } from '@nestjs/common';

export const REQUEST_TIMEOUT = 'request:timeout-ms';

/**
 * A route whose work legitimately takes longer than `REQUEST_TIMEOUT_MS` (e.g. a customer webhook
 * call). The budget is enforced by `RequestInterceptor`.
 */
export const RequestTimeout = (ms: number) => SetMetadata(REQUEST_TIMEOUT, ms);
