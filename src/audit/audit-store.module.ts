import { Module } from '@nestjs/common';
import { AuditTrail } from './audit-trail';
import { ConfigChanges } from './config-changes';

/**
 * The audit writer, for every module that changes configuration. It imports none of them (it
 * writes through the caller's entity manager), so each may import it; and the one event a committed
 * change raises (`ConfigChanges`), for the modules that keep copies of configuration.
 */
@Module({ providers: [AuditTrail, ConfigChanges], exports: [AuditTrail, ConfigChanges] })
export class AuditStoreModule {}
