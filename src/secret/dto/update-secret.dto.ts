import { ApiProperty } from '@nestjs/swagger';
import { ValidateBy, ValidateIf } from 'class-validator';
import { ApiAllowedOrigins, IsAllowedOrigins } from './allowed-origins';
import { IsSecretValue, SECRET_VALUE_MAX_LENGTH } from './secret-value';

/**
 * Either a rotation (`value`: the new value replaces the old one at the next request that
 * references it) or a change of `allowed_origins`: each is a request of its own, audited as such.
 */
export class UpdateSecretDto {
  /** 1-8192 characters, no control characters. Required unless `allowed_origins` is sent. */
  @ApiProperty({
    required: false,
    minLength: 1,
    maxLength: SECRET_VALUE_MAX_LENGTH,
    writeOnly: true,
    example: 'crm_live_8d2e4b6a1f',
  })
  @ValidateIf((dto: UpdateSecretDto) => dto.allowed_origins === undefined)
  @IsSecretValue()
  value?: string;

  /** The new origins; every field that references the secret must stay among them. */
  @ApiAllowedOrigins(false)
  @ValidateIf((dto: UpdateSecretDto) => dto.allowed_origins !== undefined)
  @IsAllowedOrigins()
  @ValidateBy({
    name: 'notWithValue',
    validator: {
      validate: (_value: unknown, args) => (args?.object as UpdateSecretDto).value === undefined,
      defaultMessage: () =>
        'allowed_origins is changed on its own: send either value (a rotation) or allowed_origins, not both',
    },
  })
  allowed_origins?: string[];
}
