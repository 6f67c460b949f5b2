import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { normalizePhoneNumber } from '../common/validation/phone-number';
import { isMysql, runTransaction } from '../database/transaction';
import { AppliedIds } from './applied-ids';
import type { BundleResource, BundleType, ConfigBundle } from './config-bundle.types';
import type { ConfigChange } from './config-diff';
import { ConfigApplySteps } from './config-apply-steps';
import { assertCurrent, ConfigPlanService } from './config-plan.service';
import { configRevision } from './config-revision';
import type { ApplyConfigDto, ConfigAppliedDto } from './dto/plan-config.dto';

/**
 * Applies a bundle: the plan's changes, each through its resource's own service (checked and
 * audited as its route does), all in one transaction or none. The services' own transactions join
 * it, so routing and caches hear of the changes once, after it commits.
 */
@Injectable()
export class ConfigApplyService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly planner: ConfigPlanService,
    private readonly steps: ConfigApplySteps,
  ) {}

  async apply(userId: string, dto: ApplyConfigDto): Promise<ConfigAppliedDto> {
    const { revision, config, wanted, changes } = await this.planner.prepare(userId, dto);
    if (changes.length === 0) return { revision, applied: 0 };
    await runTransaction(
      this.dataSource,
      async (em) => {
        await this.lockTenant(em, userId);
        // Read again under the lock: a change since the plan was read makes it stale.
        assertCurrent(revision, await configRevision(em, userId));
        const ids = new AppliedIds(config);
        for (const change of changes)
          await this.steps.run(userId, change, resourceOf(wanted, change), ids);
      },
      // As the tool service's own transactions: a name check sees what others committed.
      'READ COMMITTED',
    );
    return { revision: await configRevision(this.dataSource, userId), applied: changes.length };
  }

  /**
   * Holds the caller's user row for the transaction on MySQL, so two applies of one caller run one
   * after the other (the second then finds the revision moved). SQLite runs one transaction at a time.
   */
  private async lockTenant(em: EntityManager, userId: string): Promise<void> {
    if (isMysql(this.dataSource))
      await em.query('SELECT user_id FROM users WHERE user_id = ? FOR UPDATE', [userId]);
  }
}

/** The bundle's resource a change stands for (a mapping's key may be written another way). */
function resourceOf(
  wanted: Pick<ConfigBundle, BundleType>,
  change: ConfigChange,
): BundleResource | undefined {
  const part = wanted[change.resource_type];
  if (change.resource_type !== 'inbound' || change.name in part) return part[change.name];
  const number = normalizePhoneNumber(change.name);
  const key = Object.keys(part).find((name) => normalizePhoneNumber(name) === number);
  return key === undefined ? undefined : part[key];
}
