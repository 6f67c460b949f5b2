import { IsNull, type Repository } from 'typeorm';
import type { AuditTrail } from '../audit/audit-trail';
import { generateApiKey, hashApiKey } from './api-key';
import type { ApiKeyEntity } from './api-key.entity';
import { AuthService } from './auth.service';
import type { KeyRevocations, RevocationListener } from './key-revocations';
import type { UserEntity } from './user.entity';

// Keys of the shape the service issues: anything else is refused before any lookup.
const PRESENTED = generateApiKey();
const OTHER = generateApiKey();
const UNKNOWN = generateApiKey();

const USER: UserEntity = {
  user_id: 'u-1',
  user_name: 'Ada',
  user_email: 'ada@example.com',
  org_name: 'Acme',
} as UserEntity;

const keyRow = (over: Partial<ApiKeyEntity> = {}): ApiKeyEntity => ({
  api_key_id: 'k-1',
  user_id: USER.user_id,
  key_hash: hashApiKey(PRESENTED),
  key_prefix: 'vac_pres',
  scopes: 'config,runtime',
  revoked_at: null,
  created_at: new Date('2025-01-31T09:30:00.123Z'),
  ...over,
});

function setup() {
  const users = {
    findOne: jest.fn().mockResolvedValue(null),
    findOneOrFail: jest.fn().mockResolvedValue(USER),
    insert: jest.fn().mockResolvedValue(undefined),
  };
  const keys = {
    findOne: jest.fn().mockResolvedValue(null),
    find: jest.fn().mockResolvedValue([]),
    insert: jest.fn().mockResolvedValue(undefined),
    update: jest.fn().mockResolvedValue(undefined),
  };
  // Writes run in a transaction: its entity manager forwards to the repository mocks above.
  const em = {
    insert: (_entity: unknown, row: unknown) => keys.insert(row),
    update: (_entity: unknown, where: unknown, set: unknown) => keys.update(where, set),
  };
  Object.assign(keys, {
    manager: {
      connection: {
        options: { type: 'mysql' },
        transaction: (work: (manager: unknown) => Promise<unknown>) => work(em),
      },
    },
  });
  const listeners: RevocationListener[] = [];
  const revocations = {
    live: true,
    onRevoked: jest.fn((listener: RevocationListener) => listeners.push(listener)),
    publish: jest.fn().mockResolvedValue(undefined),
  };
  const service = new AuthService(
    users as unknown as Repository<UserEntity>,
    keys as unknown as Repository<ApiKeyEntity>,
    revocations as unknown as KeyRevocations,
    { record: jest.fn().mockResolvedValue(undefined) } as unknown as AuditTrail,
  );
  const revoke = (hash: string | null) => listeners.forEach((listener) => listener(hash));
  return { service, users, keys, revocations, revoke };
}

describe(AuthService.name, () => {
  describe('createKey', () => {
    it('creates the user under the trimmed, lower-cased email and stores only the hash and prefix of the key', async () => {
      const { service, users, keys } = setup();
      users.findOneOrFail.mockResolvedValue({ ...USER, user_id: 'u-new' });
      const created = await service.createKey({
        user_name: 'Ada',
        user_email: '  Ada@Example.COM ',
      });

      expect(users.findOne).toHaveBeenCalledWith({ where: { user_email: 'ada@example.com' } });
      expect(users.insert).toHaveBeenCalledWith(
        expect.objectContaining({
          user_name: 'Ada',
          user_email: 'ada@example.com',
          org_name: null,
        }),
      );
      expect(created.api_key).toMatch(/^vac_[A-Za-z0-9_-]{43}$/);
      expect(created).toMatchObject({
        user_id: 'u-new',
        key_prefix: created.api_key.slice(0, 8),
        scopes: ['config'],
      });
      const [stored] = keys.insert.mock.calls[0] as [Partial<ApiKeyEntity>];
      expect(stored).toEqual({
        api_key_id: created.api_key_id,
        user_id: 'u-new',
        key_hash: hashApiKey(created.api_key),
        key_prefix: created.key_prefix,
        scopes: 'config',
        revoked_at: null,
      });
      expect(JSON.stringify(stored)).not.toContain(created.api_key);
    });

    it('reuses the user with that email, and stores the scopes in their fixed order', async () => {
      const { service, users, keys } = setup();
      users.findOne.mockResolvedValue(USER);
      const created = await service.createKey({
        user_name: 'Someone else',
        user_email: USER.user_email,
        scopes: ['runtime', 'config'],
      });
      expect(users.insert).not.toHaveBeenCalled();
      expect(created.user_id).toBe(USER.user_id);
      expect(created.scopes).toEqual(['config', 'runtime']);
      expect(keys.insert).toHaveBeenCalledWith(
        expect.objectContaining({ user_id: USER.user_id, scopes: 'config,runtime' }),
      );
    });

    it('takes the user a concurrent request created first when its own insert loses the race', async () => {
      const { service, users } = setup();
      users.findOne.mockResolvedValueOnce(null).mockResolvedValueOnce(USER);
      users.insert.mockRejectedValue(new Error('Duplicate entry'));
      const created = await service.createKey({ user_name: 'Ada', user_email: USER.user_email });
      expect(created.user_id).toBe(USER.user_id);
    });

    it('rethrows an insert failure that was not a race', async () => {
      const { service, users, keys } = setup();
      users.insert.mockRejectedValue(new Error('connection lost'));
      await expect(
        service.createKey({ user_name: 'Ada', user_email: USER.user_email }),
      ).rejects.toThrow('connection lost');
      expect(keys.insert).not.toHaveBeenCalled();
    });
  });

  describe('authenticate', () => {
    it('finds an unrevoked key by the hash of what was presented and returns its user and scopes', async () => {
      const { service, users, keys } = setup();
      keys.findOne.mockResolvedValue(keyRow());
      users.findOne.mockResolvedValue(USER);
      await expect(service.authenticate(PRESENTED)).resolves.toEqual({
        user_id: 'u-1',
        user_name: 'Ada',
        user_email: 'ada@example.com',
        org_name: 'Acme',
        api_key_id: 'k-1',
        scopes: ['config', 'runtime'],
      });
      expect(keys.findOne).toHaveBeenCalledWith({
        where: { key_hash: hashApiKey(PRESENTED), revoked_at: IsNull() },
      });
      expect(users.findOne).toHaveBeenCalledWith({ where: { user_id: 'u-1' } });
    });

    it('returns null for an unknown (or revoked) key, and for a key whose user is gone', async () => {
      const { service, users, keys } = setup();
      await expect(service.authenticate(UNKNOWN)).resolves.toBeNull();
      expect(users.findOne).not.toHaveBeenCalled();
      keys.findOne.mockResolvedValue(keyRow());
      await expect(service.authenticate(PRESENTED)).resolves.toBeNull();
    });

    it('looks an invalid key up once, however often and however concurrently it is sent', async () => {
      const { service, users, keys } = setup();
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => service.authenticate(UNKNOWN)),
      );
      expect(answers).toEqual([null, null, null, null, null]);
      await expect(service.authenticate(UNKNOWN)).resolves.toBeNull();
      expect(keys.findOne).toHaveBeenCalledTimes(1);
      // A key whose user is gone is remembered as invalid too.
      keys.findOne.mockResolvedValue(keyRow());
      await service.authenticate(OTHER);
      await service.authenticate(OTHER);
      expect(keys.findOne).toHaveBeenCalledTimes(2);
      expect(users.findOne).toHaveBeenCalledTimes(1);
    });

    it('answers what does not have the shape of an issued key without a query', async () => {
      const { service, keys } = setup();
      for (const junk of ['vac_guess', '', `${PRESENTED}x`, 'Basic abc'])
        await expect(service.authenticate(junk)).resolves.toBeNull();
      expect(keys.findOne).not.toHaveBeenCalled();
    });

    it('shares one lookup between concurrent requests with a valid key', async () => {
      const { service, users, keys } = setup();
      keys.findOne.mockResolvedValue(keyRow());
      users.findOne.mockResolvedValue(USER);
      const [a, b] = await Promise.all([
        service.authenticate(PRESENTED),
        service.authenticate(PRESENTED),
      ]);
      expect(a).toEqual(b);
      expect(a).not.toBeNull();
      expect(keys.findOne).toHaveBeenCalledTimes(1);
    });

    it('answers a key it authenticated from its cache, without a query', async () => {
      const { service, users, keys } = setup();
      keys.findOne.mockResolvedValue(keyRow());
      users.findOne.mockResolvedValue(USER);
      const first = await service.authenticate(PRESENTED);
      const second = await service.authenticate(PRESENTED);
      expect(second).toEqual(first);
      expect(keys.findOne).toHaveBeenCalledTimes(1);
      expect(service.cachedUser(hashApiKey(PRESENTED))).toEqual(first);
    });

    it('does not answer from its cache while revocations cannot reach it', async () => {
      const { service, users, keys, revocations } = setup();
      keys.findOne.mockResolvedValue(keyRow());
      users.findOne.mockResolvedValue(USER);
      await service.authenticate(PRESENTED);
      revocations.live = false;
      expect(service.cachedUser(hashApiKey(PRESENTED))).toBeUndefined();
      keys.findOne.mockResolvedValue(null);
      await expect(service.authenticate(PRESENTED)).resolves.toBeNull();
    });

    it('forgets a revoked key at once, and every key when the feed may have missed messages', async () => {
      const { service, users, keys, revoke } = setup();
      keys.findOne.mockResolvedValue(keyRow());
      users.findOne.mockResolvedValue(USER);
      await service.authenticate(PRESENTED);
      await service.authenticate(OTHER);
      revoke(hashApiKey(PRESENTED));
      expect(service.cachedUser(hashApiKey(PRESENTED))).toBeUndefined();
      expect(service.cachedUser(hashApiKey(OTHER))).toBeDefined();
      revoke(null);
      expect(service.cachedUser(hashApiKey(OTHER))).toBeUndefined();
    });
  });

  describe('revokeKey', () => {
    it("reports another user's (or a missing) key as 404 and announces nothing", async () => {
      const { service, keys, revocations } = setup();
      await expect(service.revokeKey('u-1', 'k-x')).rejects.toMatchObject({ status: 404 });
      expect(keys.findOne).toHaveBeenCalledWith({ where: { api_key_id: 'k-x', user_id: 'u-1' } });
      expect(keys.update).not.toHaveBeenCalled();
      expect(revocations.publish).not.toHaveBeenCalled();
    });

    it('marks the key revoked, announces its hash and returns it without the hash', async () => {
      const { service, keys, revocations } = setup();
      const row = keyRow();
      keys.findOne.mockResolvedValue(row);
      const info = await service.revokeKey('u-1', 'k-1');
      expect(keys.update).toHaveBeenCalledWith(
        { api_key_id: 'k-1' },
        { revoked_at: expect.any(Date) as Date },
      );
      expect(revocations.publish).toHaveBeenCalledWith(row.key_hash);
      expect(info).toEqual({
        api_key_id: 'k-1',
        key_prefix: 'vac_pres',
        created_at: '2025-01-31T09:30:00.123Z',
        revoked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as string,
        scopes: ['config', 'runtime'],
      });
    });

    it('keeps the first revocation time of a key revoked twice, and announces it again', async () => {
      const { service, keys, revocations } = setup();
      const revokedAt = new Date('2025-02-01T00:00:00.000Z');
      keys.findOne.mockResolvedValue(keyRow({ revoked_at: revokedAt }));
      const info = await service.revokeKey('u-1', 'k-1');
      expect(keys.update).not.toHaveBeenCalled();
      expect(info.revoked_at).toBe('2025-02-01T00:00:00.000Z');
      expect(revocations.publish).toHaveBeenCalledTimes(1);
    });
  });

  it("lists the caller's keys newest first, as prefixes only", async () => {
    const { service, keys } = setup();
    keys.find.mockResolvedValue([keyRow({ scopes: 'runtime' })]);
    await expect(service.listKeys('u-1')).resolves.toEqual([
      {
        api_key_id: 'k-1',
        key_prefix: 'vac_pres',
        created_at: '2025-01-31T09:30:00.123Z',
        revoked_at: null,
        scopes: ['runtime'],
      },
    ]);
    expect(keys.find).toHaveBeenCalledWith({
      where: { user_id: 'u-1' },
      order: { created_at: 'DESC' },
    });
  });
});
