import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail';
import { nextUpdatedAt } from '../database/owned-entity';
import { isMysql, runTransaction } from '../database/transaction';
import type { Guardrail, GuardrailState } from './dto/rollout-fields.dto';
import { InboundMappingEntity } from './inbound-mapping.entity';
import { toInboundResponse } from './utils/to-inbound-response.util';
import type { AssistantVariant } from './variant-pick';

/** A guarded split as the guardrail judges it. */
export interface GuardedSplit {
  inbound_id: string;
  user_id: string;
  assistant_variants: AssistantVariant[];
  guardrail: Guardrail;
}

/**
 * The guardrail's two questions to the mappings: which split guards a number, and ending that
 * split on its control. The end is decided under the mapping's row lock, against the split that
 * was judged: of several workers deciding at once, one ends it and writes the audit entry
 * (`revert`, by `{system: "guardrail"}`), whose committed event rebuilds the number's routing.
 */
@Injectable()
export class SplitReverts {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditTrail,
  ) {}

  async guarded(inboundId: string): Promise<GuardedSplit | null> {
    const found = await this.dataSource.getRepository(InboundMappingEntity).findOneBy({
      inbound_id: inboundId,
    });
    if (!found?.guardrail || !found.assistant_variants?.length) return null;
    return {
      inbound_id: found.inbound_id,
      user_id: found.user_id,
      assistant_variants: found.assistant_variants,
      guardrail: found.guardrail,
    };
  }

  /** Ends `judged` on its first variant's version; false when the mapping no longer holds that split. */
  revert(judged: GuardedSplit, state: GuardrailState): Promise<boolean> {
    return runTransaction(this.dataSource, async (em) => {
      const locked = await em.findOne(InboundMappingEntity, {
        where: { inbound_id: judged.inbound_id, user_id: judged.user_id },
        ...(isMysql(em.connection) && { lock: { mode: 'pessimistic_write' as const } }),
      });
      const same =
        locked?.guardrail &&
        JSON.stringify(locked.assistant_variants) === JSON.stringify(judged.assistant_variants);
      if (!locked || !same) return false;
      const before = toInboundResponse(locked);
      const changed = await em.update(
        InboundMappingEntity,
        { inbound_id: judged.inbound_id, user_id: judged.user_id },
        {
          assistant_version: judged.assistant_variants[0].assistant_version,
          assistant_variants: null,
          guardrail: null,
          guardrail_state: state,
          updated_at: nextUpdatedAt(locked.updated_at),
        },
      );
      if (changed.affected === 0) return false;
      const after = await em.findOneByOrFail(InboundMappingEntity, { inbound_id: judged.inbound_id });
      await this.audit.record(em, judged.user_id, {
        action: 'revert',
        resource_type: 'inbound',
        resource_id: judged.inbound_id,
        before,
        after: toInboundResponse(after),
        actor: { system: 'guardrail' },
      });
      return true;
    });
  }
}
