import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AuditStoreModule } from '../audit/audit-store.module';
import type { AppConfig } from '../config/app-config';
import { SecretCipher, loadSecretCipher } from './secret-cipher';
import { SecretKeyCheck } from './secret-key-check';
import { SecretReferences } from './secret-references';
import { SecretUsage } from './secret-usage';
import { SecretUseStamps } from './secret-use-stamps';
import { SecretRepository } from './secret.repository';

/**
 * The `secrets` table, its encryption, `{{secret.NAME}}` resolution, the batched `last_used_at`
 * stamps and the registry of secret uses, for the modules whose fields reference secrets (tools,
 * strategies, assistants, the runtime view) and their job processors. It imports none of them, so
 * each may import it.
 */
@Module({
  imports: [AuditStoreModule],
  providers: [
    SecretRepository,
    SecretReferences,
    SecretKeyCheck,
    SecretUsage,
    SecretUseStamps,
    {
      provide: SecretCipher,
      inject: [ConfigService],
      useFactory: (config: ConfigService<AppConfig, true>) =>
        loadSecretCipher({
          database: config.get('database', { infer: true }),
          secrets: config.get('secrets', { infer: true }),
        }),
    },
  ],
  exports: [SecretRepository, SecretReferences, SecretCipher, SecretUsage, SecretUseStamps],
})
export class SecretStoreModule {}
