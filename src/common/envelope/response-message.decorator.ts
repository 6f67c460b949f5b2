import { SetMetadata } from '@nestjs/common';

export const RESPONSE_MESSAGE = 'envelope:message';

/** The human-readable `message` of a route's success envelope. */
export const ResponseMessage = (message: string) => SetMetadata(RESPONSE_MESSAGE, message);
