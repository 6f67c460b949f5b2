import { ApiProperty } from '@nestjs/swagger';
import { Allow, IsNumber, IsPositive, Max } from 'class-validator';
import {
  AsSent,
  Optional,
  ValidateHeaders,
  ValidateHttpUrl,
} from '../../common/validation/validation';
import {
  DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
  MAX_WEBHOOK_HEADERS,
  WEBHOOK_URL_MAX_LENGTH,
} from '../tool.constants';
import { MAX_WEBHOOK_TIMEOUT_SECONDS } from '../../contracts/limits';
import type { StaticValue } from '../tool.types';
import { IsStaticValue } from './tool-validators';

/** `tool_execution_config` of a `webhook` tool: the arguments are POSTed as JSON to `url`. */
export class WebhookExecutionConfigDto {
  /** http(s) URL that receives a POST with the arguments as its JSON body. */
  @ApiProperty({ example: 'https://api.example.com/orders/status' })
  @ValidateHttpUrl(WEBHOOK_URL_MAX_LENGTH)
  url: string;

  /** Seconds to wait for the webhook's answer: more than 0, at most 60. */
  @ApiProperty({
    default: DEFAULT_WEBHOOK_TIMEOUT_SECONDS,
    exclusiveMinimum: true,
    minimum: 0,
    maximum: MAX_WEBHOOK_TIMEOUT_SECONDS,
    example: 10,
  })
  @Optional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @IsPositive()
  @Max(MAX_WEBHOOK_TIMEOUT_SECONDS)
  timeout?: number;

  /** Additional HTTP headers sent on the call (at most 50). Sensitive values are returned as `****`. */
  @ApiProperty({ example: { Authorization: 'Bearer sk_live_abc123', 'X-Tenant': 'acme' } })
  @ValidateHeaders({ max: MAX_WEBHOOK_HEADERS, optional: true })
  headers?: Record<string, string>;
}

const STATIC_VALUE_SCHEMA = {
  oneOf: [
    { type: 'string' },
    { type: 'number' },
    { type: 'boolean' },
    { type: 'object', additionalProperties: true },
    { type: 'array', items: {} },
  ],
};

/** `tool_execution_config` of a `static_return` tool: `value` is returned as is, with no external call. */
export class StaticReturnExecutionConfigDto {
  /** Any JSON value but null: string, number, boolean, object or array. Returned unchanged. */
  @ApiProperty({
    ...STATIC_VALUE_SCHEMA,
    example: { opening_hours: 'Mon-Fri 9:00-18:00', open_on_weekends: false },
  })
  @AsSent()
  @IsStaticValue()
  value: StaticValue;
}

/**
 * Stands in when `tool_execution_type` is missing or unknown: that field already carries the error,
 * so the config is only checked for unknown keys.
 */
export class UnknownExecutionConfigDto {
  @Allow() @AsSent() url?: unknown;
  @Allow() @AsSent() timeout?: unknown;
  @Allow() @AsSent() headers?: unknown;
  @Allow() @AsSent() value?: unknown;
}

/**
 * A `tool_execution_config` patch. Its shape is only known against the stored tool, so keys are
 * accepted here and the merged record is validated as a whole (`CreateToolDto`) by the service;
 * `headers` is special because a patch may hold `null` (delete that header) and `****` (keep it).
 */
export class ToolExecutionConfigPatchDto {
  @ApiProperty({
    required: false,
    type: String,
    format: 'uri',
    description: 'Replaces the webhook URL (http or https).',
    example: 'https://api.example.com/v2/orders/status',
  })
  @AsSent()
  @Allow()
  url?: unknown;

  /** Replaces the timeout in seconds; `null` goes back to the default (10). */
  @ApiProperty({ required: false, type: Number, nullable: true, example: 15 })
  @AsSent()
  @Allow()
  timeout?: unknown;

  /** Merged key by key into the stored headers: a string sets, `null` deletes, `****` keeps the stored value. */
  @ApiProperty({ example: { Authorization: '****', 'X-Old': null, 'X-New': 'v2' } })
  @ValidateHeaders({ max: MAX_WEBHOOK_HEADERS, allowNull: true, optional: true })
  headers?: Record<string, string | null>;

  @ApiProperty({ required: false, ...STATIC_VALUE_SCHEMA })
  @AsSent()
  @Allow()
  value?: unknown;
}
