import { parsePhoneNumberFromString, type CountryCode, type PhoneNumber } from 'libphonenumber-js';
import { configuredPhoneRegion } from '../../config/app-config';
import { PHONE_MAX_DIGITS, PHONE_MIN_DIGITS } from '../../contracts/limits';

const digitCount = (value: string) => value.match(/\d/g)?.length ?? 0;

/**
 * `raw` as a phone number. With `+` (or an international call prefix) it is international. Without,
 * a number valid in `region`'s national format is read so; else digits that are a valid number with
 * a country code in front (how the telephony provider routes them: `14155552671`) are read so;
 * else whichever of the two parses, national first.
 */
function parse(raw: string, region: CountryCode): PhoneNumber | undefined {
  const national = parsePhoneNumberFromString(raw, region);
  if (raw.trim().startsWith('+') || national?.isValid()) return national;
  const international = parsePhoneNumberFromString(`+${raw.replace(/\D+/g, '')}`);
  if (international?.isValid()) return international;
  return national ?? international;
}

/**
 * A phone number as routing, ownership and the one-active-mapping rule compare it: country code
 * and national number, digits only (`+91 80 5555 7546`, `080 5555 7546`, `0091 80 5555 7546` and
 * `918055557546` are all `918055557546`). A number without `+` is read in `region`'s national
 * format (trunk prefix, international call prefix, or a country code already in front). Null when
 * it does not parse as a phone number, or does not hold a routable count of digits.
 */
export function canonicalPhoneNumber(
  raw: string,
  region: CountryCode = configuredPhoneRegion(),
): string | null {
  const count = digitCount(raw);
  if (count < PHONE_MIN_DIGITS || count > PHONE_MAX_DIGITS) return null;
  const parsed = parse(raw, region);
  if (!parsed) return null;
  const canonical = `${parsed.countryCallingCode}${parsed.nationalNumber}`;
  return digitCount(canonical) >= PHONE_MIN_DIGITS ? canonical : null;
}

/**
 * Country code and national number, digits only (`canonicalPhoneNumber`): what routing, ownership
 * and the one-active-mapping rule match on, whatever spelling the number was sent in. Request
 * bodies and route parameters are refused before they get here when they do not parse; a lookup's
 * `inbound_number` that does not parse keeps its digits, and so matches no stored number.
 */
export function normalizePhoneNumber(raw: string): string {
  return canonicalPhoneNumber(raw) ?? raw.replace(/\D+/g, '');
}
