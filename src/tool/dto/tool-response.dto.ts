import { ApiExtraModels, ApiProperty, getSchemaPath } from '@nestjs/swagger';
import {
  SIDE_EFFECTS,
  TOOL_EXECUTION_TYPES,
  TOOL_PARAMETER_TYPES,
  type ToolParameterType,
} from '../tool.constants';
import type { ToolExecutionType, StaticValue } from '../tool.types';
import {
  StaticReturnExecutionConfigDto,
  WebhookExecutionConfigDto,
} from './tool-execution-config.dto';

/** `data` of `POST /tool/create`. */
export class CreateToolResponseDto {
  /** UUID of the created tool. */
  @ApiProperty({ format: 'uuid', example: '0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11' })
  tool_id: string;

  /** The tool name. */
  @ApiProperty({ example: 'get_order_status' })
  tool_name: string;
}

/** A parameter as stored: `required` always present. */
export class ToolParameterResponseDto {
  name: string;
  @ApiProperty({ enum: TOOL_PARAMETER_TYPES })
  type: ToolParameterType;
  description?: string;
  required: boolean;
  enum?: string[];
}

/** Webhook config as returned: `timeout` filled in, sensitive header values as `****`. */
export class WebhookExecutionConfigResponseDto {
  url: string;
  /** Seconds; 10 when not set. */
  timeout: number;
  @ApiProperty({
    type: Object,
    additionalProperties: { type: 'string' },
    example: { Authorization: '****', 'X-Tenant': 'acme' },
  })
  headers: Record<string, string>;
}

/** A tool as returned by details, list and update. */
@ApiExtraModels(
  WebhookExecutionConfigResponseDto,
  StaticReturnExecutionConfigDto,
  WebhookExecutionConfigDto,
)
export class ToolDetailsDto {
  @ApiProperty({ format: 'uuid' })
  tool_id: string;
  tool_name: string;
  tool_description: string;
  @ApiProperty({ type: [ToolParameterResponseDto] })
  tool_parameters: ToolParameterResponseDto[];
  @ApiProperty({ enum: TOOL_EXECUTION_TYPES })
  tool_execution_type: ToolExecutionType;
  @ApiProperty({
    oneOf: [
      { $ref: getSchemaPath(WebhookExecutionConfigResponseDto) },
      { $ref: getSchemaPath(StaticReturnExecutionConfigDto) },
    ],
  })
  tool_execution_config: WebhookExecutionConfigResponseDto | { value: StaticValue };
  @ApiProperty({ enum: SIDE_EFFECTS })
  side_effect: string;
  /** Argument paths of a call's identity; null: every argument. */
  @ApiProperty({ type: [String], nullable: true })
  dedupe_key: string[] | null;
  dedupe_window_seconds: number;
  notify_cancel: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

/** `data` of `GET /tool/list`: newest first. */
export class ToolListDto {
  items: ToolDetailsDto[];
  /** Number of tools the caller has. */
  total: number;
  page: number;
  limit: number;
}

/** `data` of `DELETE /tool/delete/:tool_id`. */
export class DeleteToolResponseDto {
  @ApiProperty({ format: 'uuid' })
  tool_id: string;
  /** Assistants the tool was detached from. */
  @ApiProperty({ type: [String], format: 'uuid' })
  detached_assistant_ids: string[];
}

/** `data` of attach and detach: every tool now attached to the assistant. */
export class AssistantToolsDto {
  @ApiProperty({ format: 'uuid' })
  assistant_id: string;
  /** All tool ids attached to the assistant after the operation, oldest attachment first. */
  @ApiProperty({ type: [String], format: 'uuid' })
  tool_ids: string[];
}
