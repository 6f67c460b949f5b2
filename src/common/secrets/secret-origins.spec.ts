import { normaliseOrigin, originAllowed, originOf, PROVIDER } from './secret-origins';

describe('secret origins', () => {
  it('reads the origin a URL goes to, its references set aside', () => {
    expect(originOf('https://API.Example.com:443/p/{{secret.P}}?k={{secret.K}}')).toBe(
      'https://api.example.com',
    );
    expect(originOf('http://{{secret.U}}:{{secret.P}}@h.example:8080/x')).toBe(
      'http://h.example:8080',
    );
    expect(originOf('ftp://h.example/x')).toBeNull();
    expect(originOf('not a url')).toBeNull();
  });

  it.each([
    ['https://api.example.com', 'https://api.example.com'],
    ['HTTPS://API.example.com:443', 'https://api.example.com'],
    ['https://*.example.com', 'https://*.example.com'],
    ['http://*.example.com:8080', 'http://*.example.com:8080'],
    [PROVIDER, PROVIDER],
  ])('takes %s as %s', (value, stored) => expect(normaliseOrigin(value)).toBe(stored));

  it.each([
    'https://api.example.com/',
    'https://api.example.com/x',
    'https://user@api.example.com',
    'https://*.com',
    'https://a.*.example.com',
    'https://*',
    'api.example.com',
    'ftp://api.example.com',
  ])('refuses %s', (value) => expect(normaliseOrigin(value)).toBeNull());

  it('lets a value go only where it is allowed; a wildcard takes subdomains, not the domain', () => {
    const allowed = ['https://api.example.com', 'https://*.crm.example'];
    expect(originAllowed(allowed, 'https://api.example.com')).toBe(true);
    expect(originAllowed(allowed, 'https://a.crm.example')).toBe(true);
    expect(originAllowed(allowed, 'https://a.b.crm.example')).toBe(true);
    expect(originAllowed(allowed, 'https://crm.example')).toBe(false);
    expect(originAllowed(allowed, 'http://a.crm.example')).toBe(false);
    expect(originAllowed(allowed, 'https://a.crm.example:8443')).toBe(false);
    expect(originAllowed(allowed, 'https://evilcrm.example')).toBe(false);
    expect(originAllowed(allowed, 'https://api.example.com.evil.example')).toBe(false);
    expect(originAllowed(allowed, PROVIDER)).toBe(false);
    expect(originAllowed([PROVIDER], PROVIDER)).toBe(true);
    expect(originAllowed([PROVIDER], 'https://api.example.com')).toBe(false);
    expect(originAllowed(null, 'https://api.example.com')).toBe(false);
  });
});
