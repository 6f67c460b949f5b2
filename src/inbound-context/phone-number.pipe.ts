import type { PipeTransform } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import {
  normalizePhoneNumber,
  PHONE_MAX_DIGITS,
  PHONE_MIN_DIGITS,
} from './inbound-context.constants';

/** `:phone_number` in any formatting, as its digits; 400 when it cannot be a number. */
export class PhoneNumberPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const digits = normalizePhoneNumber(value);
    if (digits.length < PHONE_MIN_DIGITS || digits.length > PHONE_MAX_DIGITS) {
      throw AppException.validation([
        {
          field: 'phone_number',
          message: `phone_number must hold ${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits`,
        },
      ]);
    }
    return digits;
  }
}
