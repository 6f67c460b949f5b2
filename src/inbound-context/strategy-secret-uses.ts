import { Injectable, type OnModuleInit } from '@nestjs/common';
import { SecretUsage } from '../secret/secret-usage';
import { InboundContextStrategyService } from './inbound-context-strategy.service';
import { strategyReferencingFields } from './utils/strategy-referencing-fields.util';

/** Tells the secret module which of a user's strategies reference a secret, and in which fields. */
@Injectable()
export class StrategySecretUses implements OnModuleInit {
  constructor(
    private readonly usage: SecretUsage,
    private readonly strategies: InboundContextStrategyService,
  ) {}

  onModuleInit(): void {
    this.usage.register('inbound_context_strategy', async (userId, em) =>
      (await this.strategies.allOwned(userId, em)).map((strategy) => ({
        resource_id: strategy.strategy_id,
        fields: strategyReferencingFields(strategy),
      })),
    );
  }
}
