import { isSensitiveHeaderName, maskHeaders, maskSecret, mergeHeaders, mergeSecret, redactHeaders } from './masking';

describe('masking', () => {
  it.each(['Authorization', 'X-Api-Key', 'x-apikey', 'X-Auth-Token', 'Client-Secret', 'Cookie', 'Password', 'key'])(
    'treats %s as sensitive',
    (name) => expect(isSensitiveHeaderName(name)).toBe(true),
  );

  it.each(['Content-Type', 'X-Tenant', 'Accept'])('treats %s as not sensitive', (name) =>
    expect(isSensitiveHeaderName(name)).toBe(false),
  );

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
