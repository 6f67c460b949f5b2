import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { AppException, type FieldError } from '../common/errors/app.exception';
import { MASK } from '../common/secrets/masking';
import type { Paginated, PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { toIso } from '../common/time/iso';
import { runTransaction } from '../database/transaction';
import { isUniqueViolation } from '../database/unique-violation';
import { normaliseOrigins } from './dto/allowed-origins';
import type { CreateSecretDto } from './dto/create-secret.dto';
import type { SecretDeletedDto, SecretDetailsDto, SecretUseDto } from './dto/secret-response.dto';
import type { UpdateSecretDto } from './dto/update-secret.dto';
import { SecretCipher } from './secret-cipher';
import { ruleErrors } from './secret-reference-checks';
import { SecretUsage } from './secret-usage';
import type { SecretEntity } from './secret.entity';
import { SecretRepository } from './secret.repository';

/**
 * A user's secrets: created, listed, rotated and deleted by name. No method returns a value; a
 * value is read only by `SecretReferences`, for an outbound request.
 */
@Injectable()
export class SecretService {
  constructor(
    private readonly secrets: SecretRepository,
    private readonly usage: SecretUsage,
    private readonly dataSource: DataSource,
    private readonly cipher: SecretCipher,
    private readonly audit: AuditTrail,
  ) {}

  async create(userId: string, dto: CreateSecretDto): Promise<SecretDetailsDto> {
    try {
      await runTransaction(this.dataSource, async (em) => {
        await this.secrets.insert(
          {
            secret_id: randomUUID(),
            user_id: userId,
            secret_name: dto.secret_name,
            value_encrypted: this.cipher.encrypt(dto.value, userId, dto.secret_name),
            version: 1,
            last_used_at: null,
            allowed_origins: dto.allowed_origins ? normaliseOrigins(dto.allowed_origins) : null,
          },
          em,
        );
        await this.audit.record(em, userId, {
          ...auditOf('create', dto.secret_name),
          after: {
            ...auditView(dto.secret_name, 1),
            allowed_origins: dto.allowed_origins ? normaliseOrigins(dto.allowed_origins) : null,
          },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw nameTaken(dto.secret_name);
      throw error;
    }
    return this.details(userId, dto.secret_name);
  }

  async list(userId: string, query: PaginationQueryDto): Promise<Paginated<SecretDetailsDto>> {
    return this.secrets.page(userId, query, async (rows) => {
      const uses = rows.length
        ? await this.usage.byName(userId)
        : new Map<string, SecretUseDto[]>();
      return rows.map((row) => toSecretDetails(row, uses.get(row.secret_name) ?? []));
    });
  }

  async details(userId: string, name: string): Promise<SecretDetailsDto> {
    const row = await this.secrets.findOwned(userId, name);
    if (!row) throw AppException.notFound('Secret');
    const uses = await this.usage.byName(userId);
    return toSecretDetails(row, uses.get(name) ?? []);
  }

  /**
   * Either a rotation (the new value, `version` + 1; every reference resolves to it from the next
   * request on) or a change of `allowed_origins`, each audited. 400 naming each field that would
   * then reference the secret where it may not go, or put its value in a header that cannot carry it.
   */
  async update(userId: string, name: string, dto: UpdateSecretDto): Promise<SecretDetailsDto> {
    await runTransaction(this.dataSource, async (em) => {
      const row = await this.secrets.lockOwned(em, userId, name);
      if (!row) throw AppException.notFound('Secret');
      const fields = ((await this.usage.fieldsByName(userId, em)).get(name) ?? []).map(
        (found) => found.field,
      );
      if (dto.allowed_origins !== undefined) {
        const origins = normaliseOrigins(dto.allowed_origins);
        assertNoErrors(ruleErrors(name, { allowed_origins: origins }, fields));
        await this.audit.record(em, userId, {
          ...auditOf('update', name),
          before: { allowed_origins: row.allowed_origins },
          after: { allowed_origins: origins },
        });
        row.allowed_origins = origins;
      } else {
        const value = dto.value ?? '';
        assertNoErrors(ruleErrors(name, { allowed_origins: row.allowed_origins, value }, fields));
        row.value_encrypted = this.cipher.encrypt(value, userId, name);
        row.version += 1;
        await this.audit.record(em, userId, {
          ...auditOf('rotate', name),
          before: { version: row.version - 1 },
          after: { version: row.version },
          // A value is never shown, so a rotation's new value is `****` like its old one.
          extra: [{ field: 'value', before: MASK, after: MASK }],
        });
      }
      row.updated_at = new Date();
      await this.secrets.save(em, row);
    });
    return this.details(userId, name);
  }

  /** 409 with `data.used_by` while a tool, strategy, assistant or published version references it. */
  async remove(userId: string, name: string): Promise<SecretDeletedDto> {
    return runTransaction(this.dataSource, async (em) => {
      const row = await this.secrets.lockOwned(em, userId, name);
      if (!row) throw AppException.notFound('Secret');
      // Read on this transaction's connection, after the lock: every save that referenced the
      // secret before it has committed, and no other pool connection is needed while it is held.
      const usedBy = (await this.usage.byName(userId, em)).get(name) ?? [];
      if (usedBy.length)
        throw AppException.conflict(
          `Secret ${name} is referenced by ${usedBy.length} field(s); remove those references first`,
          { secret_name: name, used_by: usedBy },
        );
      await this.secrets.delete(em, row.secret_id);
      await this.audit.record(em, userId, {
        ...auditOf('delete', name),
        before: auditView(name, row.version),
      });
      return { secret_name: name };
    });
  }
}

function assertNoErrors(errors: FieldError[]): void {
  if (errors.length) throw AppException.validation(errors);
}

const auditOf = (action: 'create' | 'update' | 'rotate' | 'delete', name: string) =>
  ({ action, resource_type: 'secret', resource_id: name }) as const;

/** A secret as its audit entries show it: the value only ever as `****`. */
const auditView = (name: string, version: number) => ({ secret_name: name, version, value: MASK });

function nameTaken(name: string): AppException {
  return AppException.conflict(`A secret named ${name} already exists`, { secret_name: name });
}

/** The public view: everything but the value. */
export function toSecretDetails(row: SecretEntity, usedBy: SecretUseDto[]): SecretDetailsDto {
  return {
    secret_name: row.secret_name,
    version: row.version,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
    last_used_at: row.last_used_at ? toIso(row.last_used_at) : null,
    allowed_origins: row.allowed_origins,
    used_by: usedBy,
  };
}
