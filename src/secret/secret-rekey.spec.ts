import type { DataSource } from 'typeorm';
import { runSecretRekey } from './secret-rekey';

describe('runSecretRekey', () => {
  const config = {
    database: { driver: 'mysql', sqlitePath: 'unused.sqlite' },
    secrets: { encryptionKey: Buffer.alloc(32, 1).toString('base64') },
  } as Parameters<typeof runSecretRekey>[1];
  // Both refusals come before the database is touched.
  const noDatabase = {} as DataSource;

  it('requires SECRETS_ENCRYPTION_KEY_NEW', async () => {
    await expect(runSecretRekey(noDatabase, config, undefined)).rejects.toThrow(
      'SECRETS_ENCRYPTION_KEY_NEW is required (the key to re-encrypt under)',
    );
  });

  it('names SECRETS_ENCRYPTION_KEY_NEW when it is not the base64 of 32 bytes, without echoing it', async () => {
    const rejection = runSecretRekey(noDatabase, config, 'c2hvcnQta2V5');
    await expect(rejection).rejects.toThrow(
      /^SECRETS_ENCRYPTION_KEY_NEW must be the base64 of 32 bytes; make one with/,
    );
    await expect(rejection).rejects.not.toThrow(/c2hvcnQta2V5/);
  });
});
