import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { checkBundle } from './bundle-input';
import type { BundleType, ConfigBundle } from './config-bundle.types';
import { type ConfigChange, diffBundles } from './config-diff';
import { ConfigExportService } from './config-export.service';
import type { ConfigPlanDto, PlanConfigDto } from './dto/plan-config.dto';
import { type CallerConfig, toBundle } from './to-bundle';

/** A checked plan and what it was made from (what apply carries out). */
export interface PreparedPlan {
  revision: string;
  config: CallerConfig;
  wanted: Pick<ConfigBundle, BundleType>;
  changes: ConfigChange[];
}

/** What applying a bundle would change, checked as the REST routes check each resource. */
@Injectable()
export class ConfigPlanService {
  constructor(private readonly exporter: ConfigExportService) {}

  async plan(userId: string, dto: PlanConfigDto): Promise<ConfigPlanDto> {
    const { revision, changes } = await this.prepare(userId, dto);
    return { revision, changes };
  }

  /** The caller's configuration now, the bundle checked against it, and the changes it makes. */
  async prepare(userId: string, dto: PlanConfigDto): Promise<PreparedPlan> {
    const { revision, config } = await this.exporter.snapshot(userId);
    assertCurrent(dto.base_revision, revision);
    const current = toBundle(config);
    const { wanted, parts, errors } = await checkBundle(dto.bundle, current, config);
    if (errors.length) throw AppException.validation(errors);
    const changes = diffBundles(current, wanted, dto.prune ?? false, parts);
    return { revision, config, wanted, changes };
  }
}

/** 409 when the bundle was made from another revision than the current one. */
export function assertCurrent(base: string | null | undefined, revision: string): void {
  if (base != null && base !== revision)
    throw AppException.conflict(
      'The configuration has changed since base_revision: export it again, or plan without base_revision',
      { base_revision: base, revision },
    );
}
