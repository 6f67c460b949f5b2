import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy } from 'class-validator';
import { Optional, ValidateText } from '../../common/validation/validation';

/** Largest version number a query or a mapping may name (a signed 32-bit column). */
export const MAX_ASSISTANT_VERSION = 2_147_483_647;

export const PUBLISH_NOTE_MAX_LENGTH = 500;

/**
 * A field naming a published version (an integer from 1) or the working copy (null), required:
 * a split's arm, the version a check runs.
 */
export const VersionOrNull = () =>
  applyDecorators(
    ApiProperty({
      type: 'integer',
      minimum: 1,
      maximum: MAX_ASSISTANT_VERSION,
      nullable: true,
      example: 2,
    }),
    ValidateBy({
      name: 'isVersionOrNull',
      validator: {
        validate: (value: unknown) =>
          value === null ||
          (typeof value === 'number' &&
            Number.isInteger(value) &&
            value >= 1 &&
            value <= MAX_ASSISTANT_VERSION),
        defaultMessage: () =>
          '$property is required: a published version number (an integer from 1) or null for the working copy',
      },
    }),
  );

/** Body of `POST /assistant/publish/:assistant_id`. */
export class PublishAssistantDto {
  /**
   * What changed, for the people who read the version list (at most 500 characters).
   * @example "Shorter greeting; added the order lookup tool"
   */
  @ValidateText(0, PUBLISH_NOTE_MAX_LENGTH, { optional: true, nullable: true })
  note?: string;
}

/** `?version=N` of the details and runtime routes: a published version instead of the working copy. */
export class AssistantVersionQueryDto {
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    example: 3,
    description: 'A published version; without it the working copy is returned.',
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_ASSISTANT_VERSION)
  version?: number;
}

/** A published version: `data` of publish, an item of the version list. */
export class AssistantVersionDto {
  /** @example "7d3f6c1e-2b6a-4c44-9f0e-5b8a1f7e2c10" */
  assistant_id: string;

  /** Numbered from 1 per assistant. */
  @ApiProperty({ type: 'integer', minimum: 1, example: 1 })
  version: number;

  /** @example "2026-11-23T17:30:00.000Z" */
  published_at: string;

  @ApiProperty({ type: String, nullable: true, example: 'Shorter greeting' })
  note: string | null;
}

/** `data` of `GET /assistant/versions/:assistant_id`: newest first. */
export class AssistantVersionListDto {
  items: AssistantVersionDto[];

  total: number;
  page: number;
  limit: number;
}
