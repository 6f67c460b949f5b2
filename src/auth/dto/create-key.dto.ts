import { ApiProperty } from '@nestjs/swagger';
import { ArrayNotEmpty, ArrayUnique, IsArray, IsEmail, IsIn } from 'class-validator';
import { Optional, ValidateText } from '../../common/validation/validation';
import { API_KEY_SCOPES, type ApiKeyScope } from '../../common/auth/auth-user';

/** The longest address SMTP can deliver to (RFC 5321). */
export const USER_EMAIL_MAX_LENGTH = 254;
export const USER_NAME_MAX_LENGTH = 100;

export class CreateKeyDto {
  /** Display name of the key's user. */
  @ValidateText(1, USER_NAME_MAX_LENGTH)
  user_name: string;

  /** A second key for an existing email is a new key for that same user. */
  @ValidateText(0, USER_EMAIL_MAX_LENGTH)
  @IsEmail()
  user_email: string;

  @ValidateText(1, USER_NAME_MAX_LENGTH, { optional: true, nullable: true })
  org_name?: string;

  /**
   * What the key may do: `config` (every management route) and/or `runtime`
   * (`GET /assistant/runtime/:id`, provider keys in clear; for the call stack). Default `["config"]`.
   */
  @ApiProperty({ enum: API_KEY_SCOPES, isArray: true })
  @Optional({ nullable: true })
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(API_KEY_SCOPES, {
    each: true,
    message: `each value in $property must be one of: ${API_KEY_SCOPES.join(', ')}`,
  })
  scopes?: ApiKeyScope[];
}
