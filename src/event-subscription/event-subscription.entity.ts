import { Column, Entity, Index, PrimaryColumn } from 'typeorm';
import { COLUMN_TYPES } from '../database/column-types';
import { OwnedEntity } from '../database/owned-entity';
import type { SubscribableEvent } from './event-subscription.types';

/** Where a tenant wants its events delivered, and the secret each delivery is signed with. */
@Entity('event_subscriptions')
@Index('idx_event_subscriptions_user', ['user_id', 'created_at'])
export class EventSubscriptionEntity extends OwnedEntity {
  @PrimaryColumn({ type: 'varchar', length: 36 })
  subscription_id: string;

  @Column({ type: 'varchar', length: 2048 })
  url: string;

  @Column({ type: COLUMN_TYPES.json })
  events: SubscribableEvent[];

  @Column({ type: 'varchar', length: 500, nullable: true })
  description: string | null;

  /** The `whsec_...` signing secret, encrypted (`SecretCipher`, bound to the owner and this row). */
  @Column({ type: 'varchar', length: 255 })
  secret: string;
}
