import { Global, Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditStoreModule } from '../audit/audit-store.module';
import { AdminKeyGuard } from './admin-key.guard';
import { ApiKeyEntity } from './api-key.entity';
import { ApiKeyGuard } from './api-key.guard';
import { AuthController } from './auth.controller';
import { AuthService } from './auth.service';
import { KeyRevocations } from './key-revocations';
import { UserEntity } from './user.entity';
import { WebhookSecretsService } from './webhook-secrets.service';

@Global()
@Module({
  imports: [TypeOrmModule.forFeature([UserEntity, ApiKeyEntity]), AuditStoreModule],
  controllers: [AuthController],
  providers: [AuthService, KeyRevocations, ApiKeyGuard, AdminKeyGuard, WebhookSecretsService],
  exports: [AuthService, ApiKeyGuard, WebhookSecretsService],
})
export class AuthModule {}
