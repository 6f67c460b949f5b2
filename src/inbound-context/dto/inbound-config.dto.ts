import { IsString, ValidateBy, buildMessage, type ValidationOptions } from 'class-validator';
import { CharLength } from '../../common/validation/validators';
import {
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
  normalizePhoneNumber,
} from '../inbound-context.constants';

/** A phone number in any formatting whose digits count is routable (5-20 digits). */
export function HasPhoneDigits(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'hasPhoneDigits',
      validator: {
        validate: (value: unknown) => {
          if (typeof value !== 'string') return false;
          const digits = normalizePhoneNumber(value).length;
          return digits >= PHONE_MIN_DIGITS && digits <= PHONE_MAX_DIGITS;
        },
        defaultMessage: buildMessage(
          (each) =>
            `${each}$property must contain between ${PHONE_MIN_DIGITS} and ${PHONE_MAX_DIGITS} digits`,
          options,
        ),
      },
    },
    options,
  );
}

export class InboundConfigDto {
  /** The dialled number, any formatting (`+91 80 1234 5678`); routing matches on its digits. */
  @IsString()
  @CharLength(0, 40)
  @HasPhoneDigits()
  phone_number: string;
}
