import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource } from 'typeorm';
import { VersionStamps } from '../common/cache/version-stamps';
import { VersionedCache } from '../common/cache/versioned-cache';

/**
 * The public views `GET /assistant/details/:id` and `GET /assistant/list` answer with, cached per
 * process (see VersionedCache). A view reads the assistant row and its tool ids; any write to
 * those tables, to the tools (deleting one detaches it) or to the users (deleting one deletes its
 * assistants) makes every cached view stale. By table name: `tools` and `users` belong to other
 * modules, and are only watched for writes here, never read.
 */
@Injectable()
export class AssistantViewCache extends VersionedCache {
  constructor(stamps: VersionStamps, @InjectDataSource() dataSource: DataSource) {
    super(stamps, dataSource, {
      name: 'assistant-views',
      tables: ['assistants', 'assistant_tools', 'tools', 'users'],
      ttlMs: 30_000,
      maxChars: 16 * 1024 * 1024,
    });
  }
}
