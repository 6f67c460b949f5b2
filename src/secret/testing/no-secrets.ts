import type { DataSource } from 'typeorm';
import { AuditTrail } from '../../audit/audit-trail';
import { ConfigChanges } from '../../audit/config-changes';
import { SecretCipher } from '../secret-cipher';
import { SecretReferences } from '../secret-references';
import { SecretUseStamps } from '../secret-use-stamps';
import type { SecretRepository } from '../secret.repository';

/**
 * `SecretReferences` over a user who has no secrets, for unit tests of the modules that check
 * and resolve references: text without references passes through, any reference is unknown.
 */
export function noSecrets(): SecretReferences {
  const empty = {
    holdNamed: () => Promise.resolve([]),
    findNamed: () => Promise.resolve([]),
    touch: () => Promise.resolve(),
    touchNamed: () => Promise.resolve(),
  };
  const secrets = empty as unknown as SecretRepository;
  return new SecretReferences(
    secrets,
    SecretCipher.fromBase64(Buffer.alloc(32).toString('base64')),
    new SecretUseStamps(secrets),
    new AuditTrail(new ConfigChanges({ subscribers: [] } as unknown as DataSource)),
  );
}
