import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsOptional, ValidateIf } from 'class-validator';

/**
 * Presence, the same for every rule in `validation`: a field is required unless `optional`; an
 * optional field sent as `null` is refused like any other wrong value unless it is also
 * `nullable` (then `null` counts as absent; on an update it clears the field or resets it to its
 * default).
 */

export type Body = Record<string, unknown>;

export interface OptionalOptions {
  /** `null` counts as absent instead of being checked (and refused) like any other value. */
  nullable?: boolean;
  /**
   * Required after all while `when(body)` holds (`null` counts as missing then too); the one
   * error is "$property is required <reason>".
   */
  requiredWhen?: { when: (body: Body) => boolean; reason: string };
}

/** How a field may be absent, for the composite rules below. */
export interface PresenceOptions extends OptionalOptions {
  optional?: boolean;
}

const isAbsent = (value: unknown): boolean => value === undefined || value === null;

/**
 * An optional field: absent skips its rules. Without `nullable`, `null` is checked by the rules
 * (and fails them); `@IsOptional()` alone would let it through and store it.
 */
export function Optional({ nullable, requiredWhen }: OptionalOptions = {}): PropertyDecorator {
  if (requiredWhen) {
    return applyDecorators(
      ApiProperty({ required: false, nullable: true }),
      ValidateIf((body: Body, value: unknown) => !isAbsent(value) || requiredWhen.when(body)),
      IsDefined({ message: `$property is required ${requiredWhen.reason}` }),
    );
  }
  return applyDecorators(
    ApiProperty({ required: false, ...(nullable && { nullable: true }) }),
    nullable ? IsOptional() : ValidateIf((_body: object, value: unknown) => value !== undefined),
  );
}

/**
 * The presence part of a composite rule, and which values its own check leaves to that part: a
 * required field reports a missing value once ("$property is required"), so the value check skips
 * it rather than adding a second message.
 */
export function presence(options: PresenceOptions): {
  decorator: PropertyDecorator;
  skips: (value: unknown) => boolean;
} {
  const { optional, ...rest } = options;
  if (optional || rest.requiredWhen) {
    const nullIsAbsent = Boolean(rest.nullable || rest.requiredWhen);
    return {
      decorator: Optional(rest),
      skips: (value) => value === undefined || (nullIsAbsent && value === null),
    };
  }
  return { decorator: IsDefined({ message: '$property is required' }), skips: isAbsent };
}
