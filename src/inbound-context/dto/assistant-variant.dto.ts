import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { VersionOrNull } from '../../assistant/dto/assistant-version.dto';
import { Optional } from '../../common/validation/validation';

export const MIN_VARIANTS = 2;
export const MAX_VARIANTS = 5;
export const VARIANT_WEIGHT_TOTAL = 100;

/** One arm of a traffic split. */
export class AssistantVariantDto {
  /** A published version of the mapping's assistant (must exist, else 404), or null for the working copy. */
  @VersionOrNull()
  assistant_version: number | null;

  /** Share of the callers, in percent (0-100); the weights of a split total 100. */
  @ApiProperty({ type: 'integer', minimum: 0, maximum: VARIANT_WEIGHT_TOTAL, example: 10 })
  @IsInt()
  @Min(0)
  @Max(VARIANT_WEIGHT_TOTAL)
  weight: number;
}

type Arm = { assistant_version?: unknown; weight?: unknown };
const armsOf = (value: unknown): Arm[] =>
  Array.isArray(value) ? value.filter((v): v is Arm => v !== null && typeof v === 'object') : [];

/**
 * `assistant_variants`: 2-5 arms, weights totalling 100, versions distinct; with `nullable`, null
 * removes the split (an update). Exclusive with a non-null `assistant_version` in the same body.
 */
export function ValidateAssistantVariants(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: [AssistantVariantDto],
      minItems: MIN_VARIANTS,
      maxItems: MAX_VARIANTS,
      example: [
        { assistant_version: 1, weight: 90 },
        { assistant_version: 2, weight: 10 },
      ],
    }),
    Optional({ nullable: true }),
    IsArray({ message: '$property must be an array of {assistant_version, weight}' }),
    ArrayMinSize(MIN_VARIANTS),
    ArrayMaxSize(MAX_VARIANTS),
    ValidateNested({ each: true }),
    Type(() => AssistantVariantDto),
    // Only an array becomes variant objects; anything else is left for IsArray to report, and an
    // element that is itself an array fails as the non-object it is.
    Transform(({ value, obj, key }) => {
      const sent = (obj as Record<string, unknown>)[key];
      if (!Array.isArray(sent)) return sent !== null && typeof sent === 'object' ? 'object' : sent;
      return (value as unknown[]).map((element, i) => (Array.isArray(sent[i]) ? 'array' : element));
    }),
    ValidateBy({
      name: 'variantWeightsTotal',
      validator: {
        validate: (value: unknown) => {
          const arms = armsOf(value);
          if (arms.some((arm) => typeof arm.weight !== 'number')) return true; // reported per arm
          return (
            arms.reduce((sum, arm) => sum + (arm.weight as number), 0) === VARIANT_WEIGHT_TOTAL
          );
        },
        defaultMessage: () => `$property weights must total ${VARIANT_WEIGHT_TOTAL}`,
      },
    }),
    ValidateBy({
      name: 'variantVersionsDistinct',
      validator: {
        validate: (value: unknown) => {
          const versions = armsOf(value).map((arm) => arm.assistant_version);
          return new Set(versions).size === versions.length;
        },
        defaultMessage: () =>
          '$property must name each version once (null, the working copy, counts as one)',
      },
    }),
    ExclusiveWith('assistant_version'),
  );
}

/** Refuses the field beside a non-null `other` in the same body; both fields carry the rule. */
export function ExclusiveWith(other: string): PropertyDecorator {
  return ValidateBy({
    name: 'exclusiveWith',
    constraints: [other],
    validator: {
      validate: (_value: unknown, args?: ValidationArguments) => {
        const body = args?.object as Record<string, unknown> | undefined;
        return body?.[other] === undefined || body[other] === null;
      },
      defaultMessage: (args?: ValidationArguments) =>
        `${args?.property ?? 'field'} cannot be sent with ${other}: a mapping either pins one version or splits its calls (send the other as null)`,
    },
  });
}
