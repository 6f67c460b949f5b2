import { Injectable } from '@nestjs/common';
import { RoomVersions, type RememberedVersion } from './room-versions';

/** The fields of a call-time job that say which version it runs. */
export interface VersionedJobData {
  assistant_id: string;
  room_name: string;
  /** A published version, null for the working copy; absent: what the room's lookup resolved. */
  assistant_version?: number | null;
}

/** Which version a call-time job runs, and where that came from (for the service log and tests). */
export interface CallVersion {
  version: RememberedVersion;
  source: 'job' | 'lookup' | 'default';
}

/**
 * Picks the version a `tool-call` or `end-call-webhook` job runs: the job's own
 * `assistant_version` when it carries the key (null included), else the version the room's
 * inbound lookup resolved (remembered 24 h), else the working copy.
 */
@Injectable()
export class CallVersions {
  constructor(private readonly rooms: RoomVersions) {}

  async of(data: VersionedJobData): Promise<CallVersion> {
    if (data.assistant_version !== undefined)
      return { version: data.assistant_version, source: 'job' };
    const remembered = await this.rooms.recall(data.assistant_id, data.room_name);
    return remembered === undefined
      ? { version: null, source: 'default' }
      : { version: remembered, source: 'lookup' };
  }
}
