import {
  ArrayNotEmpty,
  ArrayUnique,
  IsArray,
  IsEmail,
  IsIn,
  IsOptional,
  IsString,
} from 'class-validator';
import { API_KEY_SCOPES, type ApiKeyScope } from '../api-key-scope';
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

  /**
   * What the key may do: `config` (every management route) and/or `runtime`
   * (`GET /assistant/runtime/:id`, provider keys in clear; for the call stack). Default `["config"]`.
   */
  @IsOptional()
  @IsArray()
  @ArrayNotEmpty()
  @ArrayUnique()
  @IsIn(API_KEY_SCOPES, {
    each: true,
    message: `each value in $property must be one of: ${API_KEY_SCOPES.join(', ')}`,
  })
  scopes?: ApiKeyScope[];
}
