import type { PipeTransform } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../common/validation/limits';
import { hasPhoneDigits } from '../common/validation/validation';
import { normalizePhoneNumber } from './inbound-context.constants';

/** `:phone_number` in any formatting, as its digits; 400 when it cannot be a number. */
export class PhoneNumberPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!hasPhoneDigits(value)) {
      throw AppException.validation([
        {
          field: 'phone_number',
          message: `phone_number must hold ${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits`,
        },
      ]);
    }
    return normalizePhoneNumber(value);
  }
}
