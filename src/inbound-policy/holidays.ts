import Holidays from 'date-holidays';

/*
 * Public holidays by country, from the maintained `date-holidays` rules (movable feasts, observed
 * days and all): a year's list is computed once per country and kept.
 */

const countries = new Set(Object.keys(new Holidays().getCountries()));
const byYear = new Map<string, Set<string>>();

/** Whether `code` is an ISO 3166-1 alpha-2 code the holiday rules know. */
export function isKnownHolidayCountry(code: string): boolean {
  return countries.has(code);
}

/** The country's public holidays of `year`, as `YYYY-MM-DD` local dates. */
export function publicHolidays(country: string, year: number): Set<string> {
  const key = `${country}:${year}`;
  let dates = byYear.get(key);
  if (!dates) {
    const rules = new Holidays(country);
    dates = new Set(
      (rules.getHolidays(year) || [])
        .filter((holiday) => holiday.type === 'public')
        .map((holiday) => holiday.date.slice(0, 10)),
    );
    byYear.set(key, dates);
  }
  return dates;
}

/** Whether `date` (`YYYY-MM-DD`) is a public holiday in `country`. */
export function isPublicHoliday(country: string, date: string): boolean {
  return publicHolidays(country, Number(date.slice(0, 4))).has(date);
}
