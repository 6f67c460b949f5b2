import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { isMysql, runTransaction } from '../database/transaction';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { PhoneNumberHolderEntity } from './phone-number-holder.entity';

/** What another user hears when a number is held: nothing about who holds it. */
export const NUMBER_NOT_AVAILABLE = 'This phone number is not available';

/** A number's holder and its mappings, for the operator. */
export interface NumberHolding {
  holder: PhoneNumberHolderEntity | null;
  mappings: InboundMappingEntity[];
}

/**
 * Phone numbers belong to the user who first assigned them until that user has deleted every
 * mapping of them; pausing a mapping (`is_active: false`) keeps the number. Each method takes the
 * transaction of the mapping write it guards, so a claim and its mapping commit together.
 */
@Injectable()
export class PhoneNumberHolders {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Claims `number` for `userId` (nothing to do when the user holds it); 409 when someone else does. */
  async claim(em: EntityManager, userId: string, number: string): Promise<void> {
    await em
      .createQueryBuilder()
      .insert()
      .into(PhoneNumberHolderEntity)
      .values({ phone_number_normalized: number, user_id: userId, created_at: new Date() })
      // A no-op update rather than INSERT IGNORE: on a duplicate MySQL then takes the row's
      // exclusive lock at once; IGNORE's shared lock, upgraded by the read below, deadlocks two
      // concurrent claims.
      .orUpdate(['phone_number_normalized'], ['phone_number_normalized'])
      .execute();
    const holder = await em.findOne(PhoneNumberHolderEntity, {
      where: { phone_number_normalized: number },
      // Held until the mapping write commits, so a concurrent release cannot slip in between.
      ...(isMysql(this.dataSource) ? { lock: { mode: 'pessimistic_write' as const } } : {}),
    });
    if (holder?.user_id !== userId) throw AppException.conflict(NUMBER_NOT_AVAILABLE);
  }

  /** Gives `number` up once `userId` has no mapping of it left. */
  async releaseIfUnused(em: EntityManager, userId: string, number: string): Promise<void> {
    const left = await em.count(InboundMappingEntity, {
      where: { user_id: userId, phone_number_normalized: number },
    });
    if (left === 0)
      await em.delete(PhoneNumberHolderEntity, {
        phone_number_normalized: number,
        user_id: userId,
      });
  }

  /** Who holds `number` and every mapping of it, whoever made them (operator view). */
  async holding(number: string): Promise<NumberHolding> {
    const [holder, mappings] = await Promise.all([
      this.dataSource.manager.findOne(PhoneNumberHolderEntity, {
        where: { phone_number_normalized: number },
      }),
      this.dataSource.manager.find(InboundMappingEntity, {
        where: { phone_number_normalized: number },
        order: { created_at: 'ASC', inbound_id: 'ASC' },
      }),
    ]);
    return { holder, mappings };
  }

  /** Deletes every mapping of `number` and frees it for anyone (operator action). */
  release(number: string): Promise<NumberHolding> {
    return runTransaction(this.dataSource, async (em) => {
      const mappings = await em.find(InboundMappingEntity, {
        where: { phone_number_normalized: number },
        order: { created_at: 'ASC', inbound_id: 'ASC' },
      });
      const holder = await em.findOne(PhoneNumberHolderEntity, {
        where: { phone_number_normalized: number },
      });
      if (mappings.length > 0)
        await em.delete(InboundMappingEntity, { phone_number_normalized: number });
      if (holder) await em.delete(PhoneNumberHolderEntity, { phone_number_normalized: number });
      return { holder, mappings };
    });
  }
}
