import { ApiProperty } from '@nestjs/swagger';
import { Matches } from 'class-validator';

/** Path of `POST /logs/replay/:log_id`. */
export class ReplayParamsDto {
  /** The entry to send again (`log_id` of `GET /logs`). */
  @ApiProperty({ pattern: '^[1-9][0-9]{0,18}$', example: '1042' })
  @Matches(/^[1-9][0-9]{0,18}$/, { message: 'log_id must be the id of a log entry (digits)' })
  log_id: string;
}
