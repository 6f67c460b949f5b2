import { maskUrl, restoreMaskedUrl } from './url-masking';

describe(maskUrl.name, () => {
  it('masks user info and sensitive query parameters, and leaves other URLs as sent', () => {
    expect(maskUrl('https://ada:pw@hooks.example.com/a?tenant=acme&token=t0k&api_key=k')).toBe(
      'https://****:****@hooks.example.com/a?tenant=acme&token=****&api_key=****',
    );
    expect(maskUrl('https://hooks.example.com/a?x=sk-proj-0123456789abcdef')).toBe(
      'https://hooks.example.com/a?x=****',
    );
    expect(maskUrl('https://hooks.example.com')).toBe('https://hooks.example.com');
    expect(maskUrl('https://hooks.example.com/a?tenant=acme%20co')).toBe(
      'https://hooks.example.com/a?tenant=acme%20co',
    );
    expect(maskUrl(null)).toBeNull();
  });

  it('round-trips: the masked URL sent back takes the stored credentials again', () => {
    const stored = 'https://ada:pw@hooks.example.com/a?tenant=acme&token=t0k&sig=1&sig=2';
    const masked = maskUrl(stored);
    expect(masked).not.toContain('t0k');
    expect(restoreMaskedUrl(masked, stored, 'url')).toBe(stored);
    expect(restoreMaskedUrl(masked.replace('/a?', '/b?'), stored, 'url')).toBe(
      stored.replace('/a?', '/b?'),
    );
    expect(restoreMaskedUrl('https://other.example.com/', stored, 'url')).toBe(
      'https://other.example.com/',
    );
  });

  it('refuses a masked part on another origin or where nothing is stored', () => {
    const stored = 'https://hooks.example.com/a?token=t0k';
    expect(() => restoreMaskedUrl('https://evil.example.com/a?token=****', stored, 'url')).toThrow(
      'Validation failed',
    );
    expect(() => restoreMaskedUrl('https://hooks.example.com/a?other=****', stored, 'url')).toThrow(
      'Validation failed',
    );
    expect(() => restoreMaskedUrl('https://****@hooks.example.com/a', stored, 'url')).toThrow(
      'Validation failed',
    );
  });
});
