import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, ArrayNotEmpty, IsArray, IsUUID } from 'class-validator';
import { EXAMPLE_TOOL_ID } from '../../common/validation/example-ids';

export const MAX_TOOLS_PER_REQUEST = 100;

/** Body of `POST /tool/attach/:assistant_id` and `POST /tool/detach/:assistant_id`. */
export class AttachToolsDto {
  /** Tools to attach or detach: a non-empty array of tool UUIDs; duplicates are ignored. */
  @ApiProperty({
    type: [String],
    format: 'uuid',
    example: [EXAMPLE_TOOL_ID],
  })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayMaxSize(MAX_TOOLS_PER_REQUEST)
  @IsUUID('all', { each: true, message: 'each value in tool_ids must be a UUID' })
  // The array as sent (see `AsSent`), de-duplicated; UUIDs are stored lower-case.
  @Type(() => Boolean)
  @Transform(({ obj }) => {
    const value = (obj as { tool_ids?: unknown }).tool_ids;
    return Array.isArray(value)
      ? [...new Set(value.map((v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v)))]
      : value;
  })
  tool_ids: string[];
}
