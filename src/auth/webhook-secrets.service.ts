import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import type { EntityManager, ObjectLiteral, Repository, SelectQueryBuilder } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { MASK } from '../common/secrets/masking';
import type { AppConfig } from '../config/app-config';
import { runTransaction } from '../database/transaction';
import { AppException } from '../common/errors/app.exception';
import type { WebhookSecretDto } from './dto/auth-response.dto';
import { UserEntity } from './user.entity';

/** Current secret first, then the previous one while its grace period lasts; null before the first secret exists. */
export function signingSecretsOf(
  user: Pick<
    UserEntity,
    'webhook_secret' | 'webhook_secret_previous' | 'webhook_secret_previous_expires_at'
  >,
  now = new Date(),
): string[] | null {
  if (!user.webhook_secret) return null;
  const inGrace =
    user.webhook_secret_previous &&
    user.webhook_secret_previous_expires_at &&
    user.webhook_secret_previous_expires_at > now;
  return inGrace ? [user.webhook_secret, user.webhook_secret_previous!] : [user.webhook_secret];
}

export function generateWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Sets a new signing secret only if still unset, so two first uses at once agree on one secret. */
async function setIfUnset(em: EntityManager, userId: string): Promise<void> {
  await em
    .createQueryBuilder()
    .update(UserEntity)
    .set({ webhook_secret: generateWebhookSecret() })
    .where('user_id = :userId AND webhook_secret IS NULL', { userId })
    .execute();
}

/**
 * Each user's Standard Webhooks signing secret. Created on first use; rotation keeps the previous
 * secret signing for a grace period so receivers can switch without dropping deliveries.
 */
@Injectable()
export class WebhookSecretsService {
  constructor(
    @InjectRepository(UserEntity) private readonly users: Repository<UserEntity>,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly audit: AuditTrail,
  ) {}

  /** The secrets every outbound request of this user is signed with: current first, then the previous one while in grace. */
  async signingSecretsFor(userId: string): Promise<string[]> {
    return signingSecretsOf(await this.ensureSecret(userId))!;
  }

  /** Like `signingSecretsFor`, for a user row the caller already read (e.g. joined into its own query). */
  async signingSecretsOfUser(user: UserEntity): Promise<string[]> {
    return signingSecretsOf(user) ?? this.signingSecretsFor(user.user_id);
  }

  async get(userId: string): Promise<WebhookSecretDto> {
    return this.toDto(await this.ensureSecret(userId));
  }

  async rotate(userId: string): Promise<WebhookSecretDto> {
    const user = await this.ensureSecret(userId);
    const graceSeconds = this.config.get('webhook.secretRotationGraceSeconds', { infer: true });
    const update = {
      webhook_secret: generateWebhookSecret(),
      webhook_secret_previous: user.webhook_secret,
      webhook_secret_previous_expires_at: new Date(Date.now() + graceSeconds * 1000),
    };
    await runTransaction(this.users.manager.connection, async (em) => {
      await em.update(UserEntity, { user_id: userId }, update);
      await this.audit.record(em, userId, {
        action: 'rotate',
        resource_type: 'webhook_secret',
        resource_id: userId,
        before: { previous_secret_expires_at: this.toDto(user).previous_secret_expires_at },
        after: {
          previous_secret_expires_at: update.webhook_secret_previous_expires_at.toISOString(),
        },
        // Secrets are never in an entry: the rotation shows as `****` to `****`.
        extra: [{ field: 'secret', before: MASK, after: MASK }],
      });
    });
    return this.toDto({ ...user, ...update });
  }

  /**
   * Creates the user's signing secret in `em`'s transaction when it has none yet: a write that
   * will need it (a strategy, a mapping naming one) commits it with itself, so nothing after the
   * commit has to write. Call it first in the transaction, before a row naming the user takes a
   * shared lock on it that two such transactions would then both wait to upgrade.
   */
  async createWith(em: EntityManager, userId: string): Promise<void> {
    const user = await em.findOne(UserEntity, {
      select: { user_id: true, webhook_secret: true },
      where: { user_id: userId },
    });
    if (user && !user.webhook_secret) await setIfUnset(em, userId);
  }

  private async ensureSecret(userId: string): Promise<UserEntity> {
    const user = await this.users.findOne({ where: { user_id: userId } });
    if (!user) throw AppException.notFound('User');
    if (user.webhook_secret) return user;
    await setIfUnset(this.users.manager, userId);
    return this.users.findOneOrFail({ where: { user_id: userId } });
  }

  private toDto(
    user: Pick<UserEntity, 'webhook_secret' | 'webhook_secret_previous_expires_at'>,
  ): WebhookSecretDto {
    const expires = user.webhook_secret_previous_expires_at;
    return {
      secret: user.webhook_secret!,
      previous_secret_expires_at: expires && expires > new Date() ? expires.toISOString() : null,
    };
  }

  /** The user's signing secrets as stored, read through `em` (null when the user is gone). */
  static ownerSecrets(
    em: EntityManager,
    userId: string,
  ): Promise<Pick<
    UserEntity,
    'user_id' | 'webhook_secret' | 'webhook_secret_previous' | 'webhook_secret_previous_expires_at'
  > | null> {
    return em.findOne(UserEntity, {
      select: {
        user_id: true,
        webhook_secret: true,
        webhook_secret_previous: true,
        webhook_secret_previous_expires_at: true,
      },
      where: { user_id: userId },
    });
  }

  /**
   * Left-joins, into another module's query, the user `on` names (mapped onto `mapTo` under
   * `alias`, signing secrets included), so a read that needs the owner stays one statement
   * without naming this table.
   */
  static joinOwner<T extends ObjectLiteral>(
    qb: SelectQueryBuilder<T>,
    mapTo: string,
    alias: string,
    on: string,
  ): SelectQueryBuilder<T> {
    return qb.leftJoinAndMapOne(mapTo, UserEntity, alias, on);
  }
}
