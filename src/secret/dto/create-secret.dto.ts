import { ApiProperty } from '@nestjs/swagger';
import { IsOptional, Matches } from 'class-validator';
import { ValidateText } from '../../common/validation/validation';
import { SECRET_NAME_PATTERN } from '../../common/secrets/secret-reference';
import { ApiAllowedOrigins, IsAllowedOrigins } from './allowed-origins';
import { IsSecretValue, SECRET_VALUE_MAX_LENGTH } from './secret-value';

export class CreateSecretDto {
  /** Upper-case letters, digits and `_`, starting with a letter (at most 64); unique among your secrets. */
  @ApiProperty({ pattern: SECRET_NAME_PATTERN.source, example: 'CRM_TOKEN' })
  @ValidateText(1, 64)
  @Matches(SECRET_NAME_PATTERN, {
    message: 'secret_name must match ^[A-Z][A-Z0-9_]{0,63}$ (upper-case letters, digits, _)',
  })
  secret_name: string;

  /** 1-8192 characters, no control characters. Write-only: no route ever returns it. */
  @ApiProperty({
    minLength: 1,
    maxLength: SECRET_VALUE_MAX_LENGTH,
    writeOnly: true,
    example: 'crm_live_3f9a7c1e2b',
  })
  @IsSecretValue()
  value: string;

  /** Where the value may be sent; bound by its first use when left out. */
  @ApiAllowedOrigins(false)
  @IsOptional()
  @IsAllowedOrigins()
  allowed_origins?: string[];
}
