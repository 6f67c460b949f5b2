import { IsEmail, IsOptional, IsString, Length, MaxLength } from 'class-validator';

export class CreateKeyDto {
  /** Display name of the key's user. */
  @IsString()
  @Length(1, 100)
  user_name: string;

  /** A second key for an existing email is a new key for that same user. */
  @IsEmail()
  @MaxLength(254)
  user_email: string;

  @IsOptional()
  @IsString()
  @Length(1, 100)
  org_name?: string;
}
