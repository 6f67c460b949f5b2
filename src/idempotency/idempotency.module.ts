import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { IdempotencyKeyEntity } from './idempotency-key.entity';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyPurge } from './idempotency-purge';
import { IdempotencyService } from './idempotency.service';

/** `Idempotency-Key` for POST, PATCH and DELETE; its interceptor is registered by the app module. */
@Module({
  imports: [TypeOrmModule.forFeature([IdempotencyKeyEntity])],
  providers: [IdempotencyService, IdempotencyInterceptor, IdempotencyPurge],
  exports: [IdempotencyService, IdempotencyInterceptor],
})
export class IdempotencyModule {}
