import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { referencedNames, type ReferencingField } from '../common/secrets/secret-reference';
import {
  SECRET_RESOURCE_TYPES,
  type SecretResourceType,
  type SecretUseDto,
} from './dto/secret-response.dto';

/** One of a user's resources, with the fields of it that may hold `{{secret.NAME}}`. */
export interface ReferencingResource {
  resource_id: string;
  fields: ReferencingField[];
}

/**
 * Lists every one of a user's resources of one type, with its referencing fields. Given `em`, it
 * reads on that connection, inside its transaction.
 */
export type SecretUseSource = (
  userId: string,
  em?: EntityManager,
) => Promise<ReferencingResource[]>;

/**
 * Which fields of a user's resources reference which secret: the `used_by` of reads and the 409 of
 * a delete. The resources belong to the modules above this one (tools, strategies, assistants,
 * published versions), which this module must not know: each registers a source for its resource
 * type at start-up (its `onModuleInit`), naming the fields it holds (the same list it checks when a
 * resource is saved). A type left without a source fails the boot (`assertEveryType`), so `used_by`
 * can never quietly leave one out.
 */
@Injectable()
export class SecretUsage {
  private readonly sources = new Map<SecretResourceType, SecretUseSource>();

  /** Registers the one source of a resource type. */
  register(type: SecretResourceType, source: SecretUseSource): void {
    if (this.sources.has(type)) throw new Error(`Secret uses of ${type} are registered twice`);
    this.sources.set(type, source);
  }

  /** Throws unless every resource type that may reference a secret has its source. */
  assertEveryType(): void {
    const missing = SECRET_RESOURCE_TYPES.filter((type) => !this.sources.has(type));
    if (missing.length)
      throw new Error(`No module registered the secret uses of: ${missing.join(', ')}`);
  }

  private sourceOf(type: SecretResourceType): SecretUseSource {
    const source = this.sources.get(type);
    if (!source) throw new Error(`No module registered the secret uses of: ${type}`);
    return source;
  }

  /**
   * Every use of each secret name the user's resources reference, in resource-type order. Given
   * `em`, read on its connection inside its transaction: a caller holding a lock must not wait for
   * other pool connections, which the saves queued behind that lock may all hold.
   */
  async byName(userId: string, em?: EntityManager): Promise<Map<string, SecretUseDto[]>> {
    const uses = new Map<string, SecretUseDto[]>();
    for (const [name, found] of await this.fieldsByName(userId, em))
      uses.set(
        name,
        found.map(({ use }) => use),
      );
    return uses;
  }

  /** `byName` with each use's field as its module describes it (its value, context and destination). */
  async fieldsByName(userId: string, em?: EntityManager): Promise<Map<string, FieldUse[]>> {
    const listed = await Promise.all(
      SECRET_RESOURCE_TYPES.map(async (type) => ({
        type,
        resources: await this.sourceOf(type)(userId, em),
      })),
    );
    const uses = new Map<string, FieldUse[]>();
    for (const { type, resources } of listed)
      for (const { resource_id, fields } of resources)
        for (const field of fields)
          for (const name of referencedNames(field.value))
            uses.set(name, [
              ...(uses.get(name) ?? []),
              { use: { resource_type: type, resource_id, field: field.field }, field },
            ]);
    return uses;
  }
}

/** One field that references a secret: where it is, and the field itself. */
export interface FieldUse {
  use: SecretUseDto;
  field: ReferencingField;
}
