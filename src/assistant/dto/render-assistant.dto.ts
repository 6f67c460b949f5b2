import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsIn, IsObject, IsOptional, IsString, ValidateNested } from 'class-validator';
import { CharLength, IsJsonObject } from '../../common/validation/validators';

/** Largest `context` the render route takes, as JSON text. */
export const RENDER_CONTEXT_MAX_BYTES = 65_536;

/** What `{{call.*}}` placeholders render; any left out counts as not provided. */
export class RenderCallDto {
  /** @example "+919900011122" */
  @IsOptional()
  @IsString()
  @CharLength(0, 64)
  caller_number?: string;

  /** The dialled number as routed (digits). @example "918012345678" */
  @IsOptional()
  @IsString()
  @CharLength(0, 40)
  inbound_number?: string;

  /** @example "room-123" */
  @IsOptional()
  @IsString()
  @CharLength(0, 255)
  room_name?: string;

  /** @example "0b7c4f7e-6c1e-4a57-9a55-1f1f0a3c9d11" */
  @IsOptional()
  @IsString()
  @CharLength(0, 64)
  inbound_id?: string;

  @ApiPropertyOptional({ enum: ['inbound'], example: 'inbound' })
  @IsOptional()
  @IsIn(['inbound'])
  call_type?: 'inbound';
}

export class RenderAssistantDto {
  /** Stands in for the context a lookup would return (at most 64 KB of JSON). */
  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    example: { name: 'Asha', tier: 'gold', account: { plan: 'Pro' } },
  })
  @IsOptional()
  @IsJsonObject(RENDER_CONTEXT_MAX_BYTES)
  context?: Record<string, unknown>;

  @ApiPropertyOptional({ type: RenderCallDto })
  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => RenderCallDto)
  call?: RenderCallDto;
}

/** `data` of `POST /assistant/render/:assistant_id`. */
export class RenderedAssistantDto {
  /** @example "7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10" */
  assistant_id: string;

  /**
   * `assistant_prompt` rendered.
   * @example "Hello Asha, your tier is gold. You are speaking to +919900011122."
   */
  prompt: string;

  /** `assistant_start_instruction` rendered; null when the assistant has none. */
  @ApiProperty({ type: String, nullable: true, example: 'Greet Asha by name' })
  start_instruction: string | null;

  /**
   * Placeholders nothing provided (no value, no default): they rendered as empty text.
   * @example ["context.last_order", "call.room_name"]
   */
  missing: string[];
}
