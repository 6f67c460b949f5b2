import { EventSubscriber, type EntitySubscriberInterface, type InsertEvent } from 'typeorm';
import { TimestampedEntity } from './owned-entity';

/**
 * Fills `created_at` and `updated_at` of a new `TimestampedEntity` row that does not set them,
 * with the same instant. Registered with the data source, so every insert path (repository,
 * entity manager, query builder) gets it, on both drivers.
 */
@EventSubscriber()
export class TimestampsSubscriber implements EntitySubscriberInterface<TimestampedEntity> {
  listenTo(): typeof TimestampedEntity {
    return TimestampedEntity;
  }

  beforeInsert(event: InsertEvent<TimestampedEntity>): void {
    const row = event.entity;
    const now = new Date();
    row.created_at ??= now;
    row.updated_at ??= row.created_at;
  }
}
