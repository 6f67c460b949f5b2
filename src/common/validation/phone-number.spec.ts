import { canonicalPhoneNumber, normalizePhoneNumber } from './phone-number';

describe(canonicalPhoneNumber.name, () => {
  it.each([
    '+91 80 5555 7546',
    '+91-80-5555-7546',
    '(+91) 80 5555 7546',
    '080 5555 7546',
    '0091 80 5555 7546',
    '00 91 80 5555 7546',
    '918055557546',
    '80 5555 7546',
  ])('reads %j as 918055557546 in region IN', (spelling) => {
    expect(canonicalPhoneNumber(spelling, 'IN')).toBe('918055557546');
  });

  it('reads national formats in the region it is given', () => {
    expect(canonicalPhoneNumber('(415) 555-2671', 'US')).toBe('14155552671');
    expect(canonicalPhoneNumber('011 91 80 5555 7546', 'US')).toBe('918055557546');
    expect(canonicalPhoneNumber('+1 415 555 2671', 'IN')).toBe('14155552671');
  });

  it.each(['+999 123456', '1234', '1'.repeat(21), 'phone', '+1 (23) 4', '+91\ud83d'])(
    'refuses %j',
    (value) => expect(canonicalPhoneNumber(value, 'IN')).toBeNull(),
  );

  it('uses DEFAULT_PHONE_REGION (IN by default) when no region is given', () => {
    expect(canonicalPhoneNumber('080 5555 7546')).toBe('918055557546');
  });
});

describe(normalizePhoneNumber.name, () => {
  it('canonicalises, and keeps the digits of what does not parse', () => {
    expect(normalizePhoneNumber('0091 80 5555 7546')).toBe('918055557546');
    expect(normalizePhoneNumber('+999 123456')).toBe('999123456');
  });
});
