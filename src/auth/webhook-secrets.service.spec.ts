import { generateWebhookSecret, signingSecretsOf } from './webhook-secrets.service';

describe(signingSecretsOf.name, () => {
  const now = new Date('2026-01-01T00:00:00Z');
  const later = new Date('2026-01-02T00:00:00Z');
  const earlier = new Date('2025-12-31T00:00:00Z');

  it('is null before the first secret exists', () => {
    expect(
      signingSecretsOf(
        {
          webhook_secret: null,
          webhook_secret_previous: null,
          webhook_secret_previous_expires_at: null,
        },
        now,
      ),
    ).toBeNull();
  });

  it('signs with the current secret, and with the previous one only during its grace period', () => {
    const base = { webhook_secret: 'whsec_new', webhook_secret_previous: 'whsec_old' };
    expect(signingSecretsOf({ ...base, webhook_secret_previous_expires_at: later }, now)).toEqual([
      'whsec_new',
      'whsec_old',
    ]);
    expect(signingSecretsOf({ ...base, webhook_secret_previous_expires_at: earlier }, now)).toEqual(
      ['whsec_new'],
    );
  });

  it('generates whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_/);
    expect(Buffer.from(secret.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });
});
