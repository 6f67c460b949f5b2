import { CALLER_NUMBER_MAX_LENGTH, PHONE_NUMBER_MAX_LENGTH } from '../../contracts/limits';
import { ValidateText } from './validation';

/** The numbers of a call, as the routes that preview one take them; both optional. */
export class CallNumbersDto {
  /** @example "+919900011122" */
  @ValidateText(0, CALLER_NUMBER_MAX_LENGTH, { optional: true, nullable: true })
  caller_number?: string;

  /** The dialled number as routed (digits). @example "918012345678" */
  @ValidateText(0, PHONE_NUMBER_MAX_LENGTH, { optional: true, nullable: true })
  inbound_number?: string;
}
