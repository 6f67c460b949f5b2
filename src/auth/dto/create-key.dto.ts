import { IsEmail, IsOptional, IsString } from 'class-validator';
import { CharLength } from '../../common/validation/validators';

export class CreateKeyDto {
  /** Display name of the key's user. */
  @IsString()
  @CharLength(1, 100)
  user_name: string;

  /** A second key for an existing email is a new key for that same user. */
  @IsEmail()
  @CharLength(0, 254)
  user_email: string;

  @IsOptional()
  @IsString()
  @CharLength(1, 100)
  org_name?: string;
}
