import type { PipeTransform } from '@nestjs/common';
import { AppException } from '../common/errors/app.exception';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../contracts/limits';
import { canonicalPhoneNumber } from '../common/validation/phone-number';
import { configuredPhoneRegion } from '../config/app-config';

/** `:phone_number` in any spelling, as its canonical digits; 400 when it does not parse. */
export class PhoneNumberPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    const canonical = canonicalPhoneNumber(value);
    if (canonical === null) {
      throw AppException.validation([
        {
          field: 'phone_number',
          message: `phone_number must be a phone number: +<country code> <number>, or a national number of ${configuredPhoneRegion()} (${PHONE_MIN_DIGITS}-${PHONE_MAX_DIGITS} digits)`,
        },
      ]);
    }
    return canonical;
  }
}
