import { ApiProperty } from '@nestjs/swagger';
import { IsSecretValue, SECRET_VALUE_MAX_LENGTH } from './secret-value';

/** A rotation: the new value replaces the old one at the next request that references it. */
export class UpdateSecretDto {
  /** 1-8192 characters, no control characters. */
  @ApiProperty({
    minLength: 1,
    maxLength: SECRET_VALUE_MAX_LENGTH,
    writeOnly: true,
    example: 'crm_live_8d2e4b6a1f',
  })
  @IsSecretValue()
  value: string;
}
