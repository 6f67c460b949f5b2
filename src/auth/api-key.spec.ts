import { createHash } from 'node:crypto';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyPrefixOf } from './api-key';

describe('api keys', () => {
  it('generates distinct vac_ keys carrying 32 random bytes', () => {
    const a = generateApiKey();
    const b = generateApiKey();
    expect(a).toMatch(/^vac_[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a.slice(4), 'base64url')).toHaveLength(32);
    expect(a).not.toBe(b);
  });

  it('hashes with SHA-256 hex and keeps a short prefix', () => {
    expect(hashApiKey('vac_x')).toBe(createHash('sha256').update('vac_x').digest('hex'));
    expect(keyPrefixOf('vac_abcdefgh')).toBe('vac_abcd');
  });

  it('tells the shape of an issued key from anything else', () => {
    expect(isWellFormedApiKey(generateApiKey())).toBe(true);
    for (const other of [
      '',
      'vac_',
      'vac_guess',
      `${generateApiKey()}x`,
      `vac_${'a'.repeat(42)}!`,
      `VAC_${'a'.repeat(43)}`,
      `${generateApiKey()}\n`,
    ])
      expect(isWellFormedApiKey(other)).toBe(false);
  });
});
