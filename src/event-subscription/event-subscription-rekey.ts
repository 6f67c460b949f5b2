import { resealRows, type SealedValues } from '../secret/secret-rekey';
import { subscriptionSecretName } from './event-delivery.service';
import { EventSubscriptionEntity } from './event-subscription.entity';

/**
 * The subscriptions' signing secrets follow the secret store to a new key (`secrets:rekey`), in
 * its transaction, every row locked: a subscription neither key opens stops the whole run.
 */
export const subscriptionSecrets: SealedValues = {
  what: 'event subscription secret(s)',
  rekey: (em, current, next) =>
    resealRows(em, current, next, {
      entity: EventSubscriptionEntity,
      id: 'subscription_id',
      column: 'secret',
      aad: (row) => [row.user_id, subscriptionSecretName(row.subscription_id)],
      what: (row) => `event subscription ${row.subscription_id} (user ${row.user_id})`,
    }),
};
