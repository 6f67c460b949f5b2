import { ValidatePhoneNumber } from '../../common/validation/validation';

export class InboundConfigDto {
  /** The dialled number, any formatting (`+91 80 1234 5678`); routing matches on its digits. */
  @ValidatePhoneNumber()
  phone_number: string;
}
