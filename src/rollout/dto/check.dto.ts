import { ApiProperty } from '@nestjs/swagger';
import { VersionOrNull } from '../../assistant/dto/assistant-version.dto';

/** `POST /assistant/check/:assistant_id`. */
export class RunCheckDto {
  /** A published version of the assistant, or null for the working copy. */
  @VersionOrNull()
  version: number | null;
}

export class BuiltToolRequestDto {
  tool_name: string;
  @ApiProperty({ enum: ['POST'] })
  method: 'POST';
  /** Resolved, with secrets and sensitive parts as `****`. */
  url: string;
  /** As sent, sensitive values and secrets as `****`. */
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  headers: Record<string, string>;
  /** The JSON body: the arguments as checked against the tool's parameters. */
  @ApiProperty({ type: 'object', additionalProperties: true })
  body: unknown;
}

/** What the played call came to. */
export class CheckedCaseResultDto {
  @ApiProperty({ enum: ['success', 'error', 'skipped'] })
  status: 'success' | 'error' | 'skipped';
  fallback_used: boolean;
  @ApiProperty({ type: String, nullable: true })
  error: string | null;
  @ApiProperty({ type: String, nullable: true })
  prompt: string | null;
  @ApiProperty({ type: String, nullable: true })
  start_instruction: string | null;
  missing: string[];
  @ApiProperty({ type: [BuiltToolRequestDto] })
  tool_requests: BuiltToolRequestDto[];
}

export class CheckedCaseDto {
  test_case_id: string;
  name: string;
  passed: boolean;
  failures: string[];
  result: CheckedCaseResultDto;
}

export class CheckDto {
  check_id: string;
  assistant_id: string;
  /** The version checked; null for the working copy. */
  @ApiProperty({ type: 'integer', nullable: true, example: 2 })
  version: number | null;
  /** Every case passed (a check without cases does not pass). */
  passed: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  @ApiProperty({ type: [CheckedCaseDto] })
  cases: CheckedCaseDto[];
}

export class CheckListDto {
  items: CheckDto[];
  total: number;
  page: number;
  limit: number;
}
