import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { CallNumbersDto } from '../../common/validation/call-numbers.dto';
import { ROOM_NAME_MAX_LENGTH } from '../../contracts/limits';
import {
  ValidateEnum,
  ValidateJsonObject,
  ValidateNestedObject,
  ValidateText,
} from '../../common/validation/validation';

/** Largest `context` the render route takes, as JSON text. */
export const RENDER_CONTEXT_MAX_BYTES = 65_536;

/** What `{{call.*}}` placeholders render; any left out counts as not provided. */
export class RenderCallDto extends CallNumbersDto {
  /** @example "room-123" */
  @ValidateText(0, ROOM_NAME_MAX_LENGTH, { optional: true, nullable: true })
  room_name?: string;

  /** @example "0b7c4f7e-6c1e-4a57-9a55-1f1f0a3c9d11" */
  @ValidateText(0, 64, { optional: true, nullable: true })
  inbound_id?: string;

  @ApiPropertyOptional({ example: 'inbound' })
  @ValidateEnum(['inbound'], { optional: true, nullable: true })
  call_type?: 'inbound';
}

export class RenderAssistantDto {
  /** Stands in for the context a lookup would return (at most 64 KB of JSON). */
  @ApiPropertyOptional({ example: { name: 'Asha', tier: 'gold', account: { plan: 'Pro' } } })
  @ValidateJsonObject(RENDER_CONTEXT_MAX_BYTES, { optional: true, nullable: true })
  context?: Record<string, unknown>;

  @ValidateNestedObject(() => RenderCallDto, { optional: true, nullable: true })
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
