import {
  CREDENTIAL_HEADER_NAMES,
  CREDENTIAL_WORD_HEADER_NAMES,
  PLAIN_HEADER_NAMES,
} from '../../../test/fixtures/header-names';
import {
  assertHeadersResentForNewOrigin,
  looksLikeCredential,
  isSensitiveHeaderName,
  maskHeaders,
  maskSecret,
  mergeHeaders,
  mergeSecret,
  redactHeaders,
} from './masking';
import { maskUrl } from './url-masking';

describe('masking', () => {
  it.each([
    'Authorization',
    'X-Api-Key',
    'x-apikey',
    'X-Auth-Token',
    'Client-Secret',
    'Cookie',
    'Password',
    'key',
  ])('treats %s as sensitive', (name) => expect(isSensitiveHeaderName(name)).toBe(true));

  it.each([
    ...CREDENTIAL_WORD_HEADER_NAMES,
    'X-XSRF-TOKEN',
    'x_api_code',
    'X-SID',
    'xApiCode',
    'XApiCode',
    'access_pin',
  ])('treats %s as sensitive by one of its words', (name) => {
    expect(isSensitiveHeaderName(name)).toBe(true);
    expect(maskHeaders({ [name]: '1234' })).toEqual({ [name]: '****' });
  });

  it.each([
    ...PLAIN_HEADER_NAMES,
    'Content-Type',
    'Accept',
    'X-Path',
    'X-Shipping',
    'X-Side',
    'X-Capital',
    'X-Patient',
    'X-Pinned',
    'X-Accessibility',
  ])('treats %s as not sensitive', (name) => {
    expect(isSensitiveHeaderName(name)).toBe(false);
    expect(maskHeaders({ [name]: '1234' })).toEqual({ [name]: '1234' });
  });

  it('masks query parameters by the same words', () => {
    expect(maskUrl('https://a.example.com/x?sid=42&pin=1234&country_code=IN')).toBe(
      'https://a.example.com/x?sid=****&pin=****&country_code=IN',
    );
  });

  it('masks only sensitive header values', () => {
    expect(maskHeaders({ Authorization: 'Bearer s3cret', 'X-Tenant': 'acme' })).toEqual({
      Authorization: '****',
      'X-Tenant': 'acme',
    });
  });

  it('redacts every header value for the activity log', () => {
    expect(redactHeaders({ 'X-Tenant': 'acme' })).toEqual({ 'X-Tenant': '****' });
  });

  it('merges headers: null deletes, **** keeps, names match case-insensitively', () => {
    const stored = { Authorization: 'Bearer old', 'X-Tenant': 'acme', 'X-Drop': '1' };
    expect(mergeHeaders(stored, { authorization: '****', 'X-Drop': null, 'X-New': 'v' })).toEqual({
      Authorization: 'Bearer old',
      'X-Tenant': 'acme',
      'X-New': 'v',
    });
    expect(mergeHeaders(stored, { authorization: 'Bearer new' })).toEqual({
      authorization: 'Bearer new',
      'X-Tenant': 'acme',
      'X-Drop': '1',
    });
  });

  it('shows at most the last four characters of a long secret', () => {
    expect(maskSecret('sk_live_0123456789abcdef')).toBe('****cdef');
    expect(maskSecret('short')).toBe('****');
    expect(maskSecret(null)).toBeNull();
  });

  it('keeps a stored secret when the mask is sent back', () => {
    expect(mergeSecret('stored', '****')).toBe('stored');
    expect(mergeSecret('stored', '****ored')).toBe('stored');
    expect(mergeSecret('stored', undefined)).toBe('stored');
    expect(mergeSecret('stored', 'new')).toBe('new');
    expect(mergeSecret('stored', null)).toBeUndefined();
  });
});

describe(assertHeadersResentForNewOrigin.name, () => {
  const stored = { Authorization: 'Bearer s3cret', 'X-Tenant': 'acme' };
  const check = (next: string, patch?: Record<string, string | null>) => () =>
    assertHeadersResentForNewOrigin('https://a.example.com/x', next, stored, patch, 'cfg.headers');

  it('lets the same origin through, whatever the path and the default port', () => {
    expect(check('https://a.example.com/y?q=1')).not.toThrow();
    expect(check('https://A.example.com:443/y')).not.toThrow();
  });

  it.each(['https://b.example.com/x', 'http://a.example.com/x', 'https://a.example.com:8443/x'])(
    'refuses %s while a masked header is not sent again',
    (next) => {
      expect(check(next)).toThrow('Validation failed');
      expect(check(next, { authorization: '****' })).toThrow('Validation failed');
      expect(check(next, { Authorization: 'Bearer new' })).not.toThrow();
      expect(check(next, { Authorization: null })).not.toThrow();
    },
  );
});

describe('the one masking rule', () => {
  it.each([
    ...CREDENTIAL_HEADER_NAMES,
    'X-Private-Id',
    'Set-Cookie',
    'X-Access-Token',
    'X-Client-Secret',
    'Ocp-Apim-Subscription-Key',
  ])('masks the header %s whatever its value', (name) =>
    expect(maskHeaders({ [name]: 'plain' })).toEqual({ [name]: '****' }),
  );

  it.each([
    'Bearer abc',
    'basic dXNlcjpwYXNz',
    'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.sig_part-x',
    'sk-proj-0123456789abcdef',
    'sk_live_51Habcdefghijkl',
    'xoxb-1234-5678-abcd',
    'ghp_0123456789abcdefABCDEF0123456789abcd',
    'AKIAIOSFODNN7EXAMPLE',
    'f3a9c2e1b7d84a6f9e0c1b2a3d4e5f60',
    'Z2VtaW5pX2xpdmVfa2V5X2Zvcl90ZXN0cw==',
  ])('masks a value that looks like a credential under a plain name: %s', (value) => {
    expect(looksLikeCredential(value)).toBe(true);
    expect(maskHeaders({ 'X-Custom': value })).toEqual({ 'X-Custom': '****' });
  });

  it.each([
    'acme',
    'application/json',
    'en-US,en;q=0.9',
    'my-tenant-production-eu-west-1',
    'customer-1234567890123',
    '2026-11-23T16:48:41.000Z',
    'https://example.com/callback/v1',
    'keep-alive',
  ])('leaves the plain value %s readable', (value) => {
    expect(looksLikeCredential(value)).toBe(false);
    expect(maskHeaders({ 'X-Tenant': value })).toEqual({ 'X-Tenant': value });
  });
});
