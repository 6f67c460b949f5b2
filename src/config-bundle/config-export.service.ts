import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AssistantService } from '../assistant/assistant.service';
import { AppException } from '../common/errors/app.exception';
import {
  MAX_PAGE_SIZE,
  type Paginated,
  type PaginationQueryDto,
} from '../common/pagination/pagination-query.dto';
import { InboundContextStrategyService } from '../inbound-context/inbound-context-strategy.service';
import { InboundMappingService } from '../inbound-context/inbound-mapping.service';
import { SecretRepository } from '../secret/secret.repository';
import { ToolService } from '../tool/tool.service';
import type { ExportedBundle } from './config-bundle.types';
import { configRevision } from './config-revision';
import { type CallerConfig, toBundle } from './to-bundle';

/** Reads of a consistent snapshot: a change between the first and last read starts them over. */
const SNAPSHOT_TRIES = 3;

/** Every item of a paginated list, page after page. */
async function allOf<T>(read: (query: PaginationQueryDto) => Promise<Paginated<T>>): Promise<T[]> {
  const items: T[] = [];
  for (let page = 1; ; page++) {
    const result = await read({ page, limit: MAX_PAGE_SIZE });
    items.push(...result.items);
    if (result.items.length < MAX_PAGE_SIZE || items.length >= result.total) return items;
  }
}

/**
 * The caller's configuration, through each module's own reads (the views its routes return, secrets
 * masked), at one revision.
 */
@Injectable()
export class ConfigExportService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly assistants: AssistantService,
    private readonly tools: ToolService,
    private readonly strategies: InboundContextStrategyService,
    private readonly mappings: InboundMappingService,
    private readonly secrets: SecretRepository,
  ) {}

  /** The bundle and the revision it was read at; 409 on names two resources of one type share. */
  async export(userId: string): Promise<ExportedBundle> {
    const { revision, config } = await this.snapshot(userId);
    return { revision, ...toBundle(config) };
  }

  /** Everything of the caller and the revision it is at (read again when it changed meanwhile). */
  async snapshot(userId: string): Promise<{ revision: string; config: CallerConfig }> {
    for (let attempt = 0; attempt < SNAPSHOT_TRIES; attempt++) {
      const revision = await configRevision(this.dataSource, userId);
      const config = await this.read(userId);
      if ((await configRevision(this.dataSource, userId)) === revision) return { revision, config };
    }
    throw AppException.conflict('The configuration kept changing while it was read: try again');
  }

  /** Everything of the caller as the reads return it. */
  async read(userId: string): Promise<CallerConfig> {
    const [assistants, tools, strategies, inbound, secrets] = await Promise.all([
      allOf((query) => this.assistants.list(userId, query)),
      allOf((query) => this.tools.list(userId, query)),
      allOf((query) => this.strategies.list(userId, query)),
      allOf((query) => this.mappings.list(userId, query)),
      allOf((query) =>
        this.secrets.page(userId, query, (rows) =>
          Promise.resolve(
            rows.map(({ secret_name, allowed_origins }) => ({ secret_name, allowed_origins })),
          ),
        ),
      ),
    ]);
    return { assistants, tools, strategies, inbound, secrets };
  }
}
