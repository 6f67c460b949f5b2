import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditEntryEntity } from './audit-entry.entity';
import { AuditRetentionService } from './audit-retention.service';
import { AuditController } from './audit.controller';
import { AuditService } from './audit.service';

/** `GET /audit` and the retention of its entries; writers import `AuditStoreModule`. */
@Module({
  imports: [TypeOrmModule.forFeature([AuditEntryEntity])],
  controllers: [AuditController],
  providers: [AuditService, AuditRetentionService],
})
export class AuditModule {}
