import { Module } from '@nestjs/common';
import { SecretReferences } from './secret-references';
import { SecretRepository } from './secret.repository';

/**
 * The `secrets` table and `{{secret.NAME}}` resolution, for the modules whose fields reference
 * secrets (tools, strategies, assistants, the runtime view) and their job processors. It imports
 * none of them, so each may import it.
 */
@Module({
  providers: [SecretRepository, SecretReferences],
  exports: [SecretRepository, SecretReferences],
})
export class SecretStoreModule {}
