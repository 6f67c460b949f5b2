import type { SealedValues } from '../secret/secret-rekey';
import { reseal } from '../secret/secret-rekey';
import { lockForWrite } from '../database/transaction';
import { subscriptionSecretName } from './event-delivery.service';
import { EventSubscriptionEntity } from './event-subscription.entity';

/**
 * The subscriptions' signing secrets follow the secret store to a new key (`secrets:rekey`), in
 * its transaction, every row locked: a subscription neither key opens stops the whole run.
 */
export const subscriptionSecrets: SealedValues = {
  what: 'event subscription secret(s)',
  async rekey(em, current, next) {
    const rows = await lockForWrite(
      em
        .getRepository(EventSubscriptionEntity)
        .createQueryBuilder('s')
        .orderBy('s.subscription_id', 'ASC'),
    ).getMany();
    let reencrypted = 0;
    for (const row of rows) {
      const secret = reseal(
        current,
        next,
        row.secret,
        [row.user_id, subscriptionSecretName(row.subscription_id)],
        `event subscription ${row.subscription_id} (user ${row.user_id})`,
      );
      if (secret === null) continue;
      await em
        .createQueryBuilder()
        .update(EventSubscriptionEntity)
        .set({ secret, updated_at: () => 'updated_at' })
        .where({ subscription_id: row.subscription_id })
        .execute();
      reencrypted += 1;
    }
    return { total: rows.length, reencrypted };
  },
};
