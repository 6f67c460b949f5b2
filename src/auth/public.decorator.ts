import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'auth:is-public';

/** Opts a route out of the global API key guard (health, admin-key routes that check their own bearer). */
export const Public = () => SetMetadata(IS_PUBLIC, true);
