import { Injectable } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import type { Guardrail, GuardrailState, MappingEnvironment } from './dto/rollout-fields.dto';
import type { InboundMappingEntity } from './inbound-mapping.entity';

/** Whether the newest check of this exact version of the assistant passed (the rollout module answers). */
export type PassingCheck = (
  userId: string,
  assistantId: string,
  version: number,
) => Promise<boolean>;

type RolloutFields = Pick<InboundMappingEntity, 'environment' | 'guardrail' | 'guardrail_state'>;
type Routed = Pick<
  InboundMappingEntity,
  'assistant_id' | 'assistant_version' | 'assistant_variants'
>;

/** What an assign or update body says of the rollout fields. */
export interface RolloutInput {
  environment?: MappingEnvironment | null;
  guardrail?: Guardrail | null;
  assistant_variants?: unknown;
}

/**
 * The rollout fields of a mapping write: `environment` (a production number takes only versions
 * whose newest check passed, never the working copy) and `guardrail` (only with a split). The
 * checks belong to a module above this one, which registers the answer at start-up.
 */
@Injectable()
export class ProductionGate {
  private passing: PassingCheck = () => Promise.resolve(false);

  register(passing: PassingCheck): void {
    this.passing = passing;
  }

  /** `settle` for a new mapping of `dto.assistant_id`. */
  forAssign(
    userId: string,
    dto: RolloutInput & { assistant_id: string },
    version: number | null,
    variants: InboundMappingEntity['assistant_variants'],
  ): Promise<RolloutFields> {
    const next = { assistant_id: dto.assistant_id, assistant_version: version };
    return this.settle(userId, dto, { ...next, assistant_variants: variants });
  }

  /** The fields to store once `next` (the mapping as written) is allowed; `stored` on an update. */
  async settle(
    userId: string,
    dto: RolloutInput,
    next: Routed,
    stored?: InboundMappingEntity,
  ): Promise<RolloutFields> {
    const environment =
      dto.environment !== undefined ? (dto.environment ?? null) : (stored?.environment ?? null);
    const split = Boolean(next.assistant_variants?.length);
    if (dto.guardrail && !split)
      throw AppException.validation([
        { field: 'guardrail', message: 'guardrail needs assistant_variants: it guards a split' },
      ]);
    const guardrail = dto.guardrail !== undefined ? dto.guardrail : (stored?.guardrail ?? null);
    const newSplit = split && dto.assistant_variants !== undefined;
    if (environment === 'production') await this.assertChecked(userId, next);
    return {
      environment,
      // A pin ends the split, and with it its guardrail.
      guardrail: split && guardrail ? { ...guardrail } : null,
      guardrail_state: newSplit ? null : ((stored?.guardrail_state as GuardrailState) ?? null),
    };
  }

  /** 409 naming the field and the version unless every version the number serves passed its check. */
  private async assertChecked(userId: string, next: Routed): Promise<void> {
    const assistantId = next.assistant_id;
    if (!assistantId) return;
    const served = next.assistant_variants?.length
      ? next.assistant_variants.map((arm, i) => ({
          field: `assistant_variants[${i}].assistant_version`,
          version: arm.assistant_version,
        }))
      : [{ field: 'assistant_version', version: next.assistant_version ?? null }];
    for (const { field, version } of served) {
      if (version === null)
        throw AppException.conflict(
          `${field}: the working copy cannot serve a production number; publish a version, check it and pin it`,
          { field, version },
        );
      if (!(await this.passing(userId, assistantId, version)))
        throw AppException.conflict(
          `${field}: version ${version} of the assistant has no passing check (POST /assistant/check/${assistantId})`,
          { field, version },
        );
    }
  }
}
