import { Module } from '@nestjs/common';
import { AuditTrail } from './audit-trail';

/**
 * The audit writer, for every module that changes configuration. It imports none of them (it
 * writes through the caller's entity manager), so each may import it.
 */
@Module({ providers: [AuditTrail], exports: [AuditTrail] })
export class AuditStoreModule {}
