import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { VersionStamps } from '../common/cache/version-stamps';
import { VersionedCache } from '../common/cache/versioned-cache';
import { WebhookSecretsService } from '../auth/webhook-secrets.service';
import { AssistantToolsRepository } from './assistant-tools.repository';
import { AssistantRepository } from './assistant.repository';

/**
 * The public views `GET /assistant/details/:id` and `GET /assistant/list` answer with, cached per
 * process (see VersionedCache). A view reads the assistant row and its tool ids; any write to
 * those tables (deleting a tool detaches it through AssistantToolsRepository, in its transaction)
 * or to the users (deleting one deletes its assistants by foreign key) makes every cached view
 * stale. The users table is named by auth's WebhookSecretsService, and only watched here, never
 * read.
 */
@Injectable()
export class AssistantViewCache extends VersionedCache {
  constructor(stamps: VersionStamps, @InjectDataSource() dataSource: DataSource) {
    super(stamps, dataSource, {
      name: 'assistant-views',
      tables: [
        AssistantRepository.TABLE,
        AssistantToolsRepository.TABLE,
        WebhookSecretsService.USERS_TABLE,
      ],
      ttlMs: 30_000,
      maxChars: 16 * 1024 * 1024,
    });
  }
}
