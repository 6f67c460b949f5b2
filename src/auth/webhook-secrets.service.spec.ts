import {
  WebhookSecretsService,
  generateWebhookSecret,
  signingSecretsOf,
} from './webhook-secrets.service';

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

describe('WebhookSecretsService.createWith', () => {
  function manager(stored: string | null) {
    const qb = {
      update: jest.fn().mockReturnThis(),
      set: jest.fn().mockReturnThis(),
      where: jest.fn().mockReturnThis(),
      execute: jest.fn().mockResolvedValue({ affected: 1 }),
    };
    const em = {
      findOne: jest.fn().mockResolvedValue({ user_id: 'u-1', webhook_secret: stored }),
      createQueryBuilder: jest.fn(() => qb),
    };
    return { em, qb };
  }
  const service = new WebhookSecretsService({} as never, {} as never, {} as never);

  it("sets a new secret, in the caller's transaction, only where none is set yet", async () => {
    const { em, qb } = manager(null);
    await service.createWith(em as never, 'u-1');
    expect(qb.set).toHaveBeenCalledWith({ webhook_secret: expect.stringMatching(/^whsec_/) });
    expect(qb.where).toHaveBeenCalledWith('user_id = :userId AND webhook_secret IS NULL', {
      userId: 'u-1',
    });
  });

  it('writes nothing when the owner has one', async () => {
    const { em, qb } = manager('whsec_kept');
    await service.createWith(em as never, 'u-1');
    expect(qb.execute).not.toHaveBeenCalled();
  });
});
