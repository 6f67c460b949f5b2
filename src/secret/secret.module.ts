import { Module, type OnApplicationBootstrap } from '@nestjs/common';
import { AuditStoreModule } from '../audit/audit-store.module';
import { IdempotencyModule } from '../idempotency/idempotency.module';
import { IdempotencySealer } from './idempotency-sealer';
import { SecretStoreModule } from './secret-store.module';
import { SecretUsage } from './secret-usage';
import { SecretController } from './secret.controller';
import { SecretService } from './secret.service';

/**
 * The `/secret` routes. `used_by` reads the tools, strategies, assistants and published versions
 * through the sources their modules register on `SecretUsage`; this module imports none of them.
 */
@Module({
  // IdempotencyModule: kept responses holding a credential are sealed with the secrets' key.
  imports: [SecretStoreModule, AuditStoreModule, IdempotencyModule],
  controllers: [SecretController],
  providers: [SecretService, IdempotencySealer],
})
export class SecretModule implements OnApplicationBootstrap {
  constructor(private readonly usage: SecretUsage) {}

  /** Every module has registered its source by now (they do it in `onModuleInit`). */
  onApplicationBootstrap(): void {
    this.usage.assertEveryType();
  }
}
