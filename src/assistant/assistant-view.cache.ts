import { Injectable } from '@nestjs/common';
import type { AuditResourceType } from '../audit/audit.types';
import { ConfigChanges } from '../audit/config-changes';
import { VersionStamps } from '../common/cache/version-stamps';
import { VersionedCache } from '../common/cache/versioned-cache';

/** The changes that alter a view: the assistant itself, or a tool attached, detached or deleted. */
const VIEW_RESOURCES: ReadonlySet<AuditResourceType> = new Set(['assistant', 'tool']);

/**
 * The public views `GET /assistant/details/:id` and `GET /assistant/list` answer with, cached per
 * process (see VersionedCache). A view reads the assistant row and its tool ids; every committed
 * assistant or tool change (deleting a tool detaches it, in its transaction) makes every cached
 * view stale. A user's deletion (its assistants go by foreign key) leaves no key that could read
 * them; the stamp's TTL bounds the rest.
 */
@Injectable()
export class AssistantViewCache extends VersionedCache {
  constructor(stamps: VersionStamps, changes: ConfigChanges) {
    super(stamps, {
      name: 'assistant-views',
      ttlMs: 30_000,
      maxChars: 16 * 1024 * 1024,
    });
    changes.on(({ resource_types }) => {
      if ([...resource_types].some((type) => VIEW_RESOURCES.has(type))) return this.renew();
    });
  }
}
