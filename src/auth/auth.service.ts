import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { LRUCache } from 'lru-cache';
import { IsNull, type Repository } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { toIso } from '../common/time/iso';
import { runTransaction } from '../database/transaction';
import { AppException } from '../common/errors/app.exception';
import type { AuthUser } from '../common/auth/auth-user';
import { ApiKeyEntity } from './api-key.entity';
import { DEFAULT_API_KEY_SCOPES, parseScopes, serializeScopes } from './api-key-scope';
import { generateApiKey, hashApiKey, isWellFormedApiKey, keyPrefixOf } from './api-key';
import { KeyRevocations } from './key-revocations';
import type { ApiKeyInfoDto, CreatedKeyDto } from './dto/auth-response.dto';
import type { CreateKeyDto } from './dto/create-key.dto';
import { UserEntity } from './user.entity';

/**
 * Authenticated keys are remembered so requests do not cost a query each. A revocation reaches
 * every process's cache at once through KeyRevocations; a process that cannot hear revocations
 * (Redis subscription down) does not answer from its cache. The TTL is the backstop.
 */
const AUTH_CACHE_TTL_MS = 5 * 60_000;

/**
 * Keys looked up and not found are remembered too, so an invalid key costs one query, however
 * often it is sent. A key never becomes valid later (a new key is random, and a revoked key stays
 * revoked), so the entries need no invalidation; the bound only caps memory.
 */
const INVALID_KEY_CACHE = { max: 20_000, ttl: 10 * 60_000 };

@Injectable()
export class AuthService {
  private readonly cache = new LRUCache<string, AuthUser>({ max: 10_000, ttl: AUTH_CACHE_TTL_MS });
  private readonly invalid = new LRUCache<string, true>(INVALID_KEY_CACHE);
  /** Lookups under way, by hash: concurrent requests with one key share one query. */
  private readonly pending = new Map<string, Promise<AuthUser | null>>();

  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    @InjectRepository(ApiKeyEntity) private readonly keys: Repository<ApiKeyEntity>,
    private readonly revocations: KeyRevocations,
    private readonly audit: AuditTrail,
  ) {
    revocations.onRevoked((hash) => (hash ? this.cache.delete(hash) : this.cache.clear()));
  }

  async createKey(dto: CreateKeyDto): Promise<CreatedKeyDto> {
    const user = await this.findOrCreateUser(dto);
    const apiKey = generateApiKey();
    const scopes = parseScopes(serializeScopes(dto.scopes ?? DEFAULT_API_KEY_SCOPES));
    const record: Partial<ApiKeyEntity> = {
      api_key_id: randomUUID(),
      user_id: user.user_id,
      key_hash: hashApiKey(apiKey),
      key_prefix: keyPrefixOf(apiKey),
      scopes: serializeScopes(scopes),
      revoked_at: null,
    };
    await runTransaction(this.keys.manager.connection, async (em) => {
      await em.insert(ApiKeyEntity, record);
      await this.audit.record(em, user.user_id, {
        action: 'create',
        resource_type: 'api_key',
        resource_id: record.api_key_id!,
        after: toKeyInfo({ ...record, created_at: new Date() } as ApiKeyEntity),
      });
    });
    return {
      api_key: apiKey,
      api_key_id: record.api_key_id!,
      key_prefix: record.key_prefix!,
      user_id: user.user_id,
      scopes,
    };
  }

  /** The user behind a key (by its SHA-256) that this process authenticated recently; never a query. */
  cachedUser(hash: string): AuthUser | undefined {
    return this.revocations.live ? this.cache.get(hash) : undefined;
  }

  /**
   * What this process knows of a presented key without a query: its user, null when it is not a
   * key (malformed, or looked up and not found), undefined when only a query can tell.
   */
  known(presented: string): AuthUser | null | undefined {
    if (!isWellFormedApiKey(presented)) return null;
    const hash = hashApiKey(presented);
    return this.cachedUser(hash) ?? (this.invalid.has(hash) ? null : undefined);
  }

  /**
   * The user behind a presented key, or null. A key is looked up by its hash (the key itself is
   * never compared), at most once while this process remembers the answer: a key that does not
   * have an issued key's shape, or that was looked up and not found, costs no query.
   */
  async authenticate(presented: string): Promise<AuthUser | null> {
    if (!isWellFormedApiKey(presented)) return null;
    const hash = hashApiKey(presented);
    const cached = this.cachedUser(hash);
    if (cached) return cached;
    if (this.invalid.has(hash)) return null;
    let lookup = this.pending.get(hash);
    if (!lookup) {
      lookup = this.lookUp(hash).finally(() => this.pending.delete(hash));
      this.pending.set(hash, lookup);
    }
    return lookup;
  }

  private async lookUp(hash: string): Promise<AuthUser | null> {
    const key = await this.keys.findOne({ where: { key_hash: hash, revoked_at: IsNull() } });
    const user = key ? await this.users.findOne({ where: { user_id: key.user_id } }) : null;
    if (!key || !user) {
      this.invalid.set(hash, true);
      return null;
    }
    const authUser: AuthUser = {
      user_id: user.user_id,
      user_name: user.user_name,
      user_email: user.user_email,
      org_name: user.org_name,
      api_key_id: key.api_key_id,
      scopes: parseScopes(key.scopes),
    };
    this.cache.set(hash, authUser);
    return authUser;
  }

  async listKeys(userId: string): Promise<ApiKeyInfoDto[]> {
    const keys = await this.keys.find({
      where: { user_id: userId },
      order: { created_at: 'DESC' },
    });
    return keys.map(toKeyInfo);
  }

  async revokeKey(userId: string, apiKeyId: string): Promise<ApiKeyInfoDto> {
    const key = await this.keys.findOne({ where: { api_key_id: apiKeyId, user_id: userId } });
    if (!key) throw AppException.notFound('API key');
    if (!key.revoked_at) {
      const before = toKeyInfo(key);
      key.revoked_at = new Date();
      await runTransaction(this.keys.manager.connection, async (em) => {
        await em.update(ApiKeyEntity, { api_key_id: apiKeyId }, { revoked_at: key.revoked_at });
        await this.audit.record(em, userId, {
          action: 'revoke',
          resource_type: 'api_key',
          resource_id: apiKeyId,
          before,
          after: toKeyInfo(key),
        });
      });
    }
    await this.revocations.publish(key.key_hash);
    return toKeyInfo(key);
  }

  private async findOrCreateUser(dto: CreateKeyDto): Promise<UserEntity> {
    const email = dto.user_email.trim().toLowerCase();
    const existing = await this.users.findOne({ where: { user_email: email } });
    if (existing) return existing;
    try {
      await this.users.insert({
        user_id: randomUUID(),
        user_name: dto.user_name,
        user_email: email,
        org_name: dto.org_name ?? null,
      });
    } catch (error) {
      // A concurrent request created the same user first; the unique email index decided.
      const raced = await this.users.findOne({ where: { user_email: email } });
      if (raced) return raced;
      throw error;
    }
    return this.users.findOneOrFail({ where: { user_email: email } });
  }
}

/** A key as its owner sees it: never the key, only its prefix. */
function toKeyInfo(key: ApiKeyEntity): ApiKeyInfoDto {
  return {
    api_key_id: key.api_key_id,
    key_prefix: key.key_prefix,
    created_at: toIso(key.created_at),
    revoked_at: key.revoked_at ? toIso(key.revoked_at) : null,
    scopes: parseScopes(key.scopes),
  };
}
