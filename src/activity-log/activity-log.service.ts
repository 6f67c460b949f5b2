import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { ActivityLogEntity, type LogStatus, type LogType } from './activity-log.entity';

export interface ActivityLogInput {
  user_id: string;
  log_type: LogType;
  status: LogStatus;
  assistant_id: string | null;
  room_name: string;
  message: string;
  /** Outbound request details. Header values must already be redacted by the caller. */
  request_data: Record<string, unknown>;
  response_data: Record<string, unknown>;
  latency_ms: number;
  timestamp?: Date;
}

const MAX_MESSAGE = 1000;

/**
 * The one writer of the activity log. A failed write never fails the job that produced the
 * entry: it is reported in the service log and `record` resolves to null.
 */
@Injectable()
export class ActivityLogService {
  private readonly logger = new Logger(ActivityLogService.name);

  constructor(@InjectRepository(ActivityLogEntity) private readonly logs: Repository<ActivityLogEntity>) {}

  async record(input: ActivityLogInput): Promise<string | null> {
    try {
      const result = await this.logs.insert({
        ...input,
        message: input.message.length > MAX_MESSAGE ? `${input.message.slice(0, MAX_MESSAGE - 1)}…` : input.message,
        room_name: input.room_name.slice(0, 255),
        latency_ms: Math.max(0, Math.round(input.latency_ms)),
        timestamp: input.timestamp ?? new Date(),
      });
      return String(result.identifiers[0]?.id ?? '');
    } catch (error) {
      this.logger.error(
        { err: error, log_type: input.log_type, assistant_id: input.assistant_id, room_name: input.room_name },
        'activity log write failed',
      );
      return null;
    }
  }
}
