import { AppException } from '../errors/app.exception';
import { checkPublicUrl, isPublicAddress, UrlGuard } from './url-guard';

describe(UrlGuard.name, () => {
  const publicDns = () => Promise.resolve(['93.184.216.34']);
  const strict = new UrlGuard({ allowPrivateNetworks: false, resolve: publicDns });

  it.each([
    'http://127.0.0.1/hook',
    'http://127.1/',
    'http://2130706433/',
    'http://0x7f000001/',
    'http://017700000001/',
    'http://10.0.0.8/',
    'http://172.16.4.4/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data',
    'http://0.0.0.0/',
    'http://[::1]/',
    'http://[::]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[fe80::1]/',
    'http://[fd00::1]/',
    'http://localhost:3000/',
    'http://api.localhost/',
    'http://[::127.0.0.1]/',
    'http://[::a9fe:a9fe]/',
    'http://[::169.254.169.254]/',
    'http://168.63.129.16/machine?comp=goalstate',
  ])('refuses %s', async (url) => {
    await expect(
      checkPublicUrl(url, { allowPrivateNetworks: false, resolve: publicDns }),
    ).resolves.toMatch(/must not|only to public/);
  });

  it.each([
    'https://93.184.216.34/hook',
    'http://[2606:4700::6810:84e5]/',
    'https://hooks.example.com/x',
  ])('accepts %s', async (url) => {
    await expect(
      checkPublicUrl(url, { allowPrivateNetworks: false, resolve: publicDns }),
    ).resolves.toBeNull();
  });

  it('refuses a host name when any of its addresses is private', async () => {
    const resolve = () => Promise.resolve(['93.184.216.34', '10.0.0.1']);
    await expect(
      checkPublicUrl('https://internal.example.com/', { allowPrivateNetworks: false, resolve }),
    ).resolves.toMatch(/only to public addresses/);
  });

  it('answers the same for a name that does not resolve as for an internal one', async () => {
    const missing = (): Promise<string[]> => Promise.reject(new Error('ENOTFOUND'));
    const internal = () => Promise.resolve(['10.0.0.1']);
    const slow = () => new Promise<string[]>(() => undefined);
    const answers = await Promise.all([
      checkPublicUrl('https://nowhere.invalid/', { allowPrivateNetworks: false, resolve: missing }),
      checkPublicUrl('https://db.corp.example/', {
        allowPrivateNetworks: false,
        resolve: internal,
      }),
      checkPublicUrl('https://slow.example/', {
        allowPrivateNetworks: false,
        resolve: slow,
        resolveTimeoutMs: 20,
      }),
    ]);
    expect(answers[0]).toMatch(/only to public addresses/);
    expect(new Set(answers).size).toBe(1);
  });

  it('allows everything http(s) when private networks are allowed, but never other schemes', async () => {
    await expect(
      checkPublicUrl('http://127.0.0.1:8080/', { allowPrivateNetworks: true }),
    ).resolves.toBeNull();
    await expect(
      checkPublicUrl('ftp://example.com/', { allowPrivateNetworks: true }),
    ).resolves.toBe('must be an http(s) URL');
  });

  it('throws a 400 naming the field', async () => {
    const error = await strict
      .assertPublicUrl('http://169.254.169.254/', 'strategy_config.url')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppException);
    expect((error as AppException).status).toBe(400);
    expect((error as AppException).data).toEqual({
      errors: [
        {
          field: 'strategy_config.url',
          message:
            'strategy_config.url must not target a private, loopback, link-local or metadata address',
        },
      ],
    });
  });

  it('classifies addresses', () => {
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    expect(isPublicAddress('::ffff:8.8.8.8')).toBe(true);
    expect(isPublicAddress('100.127.255.255')).toBe(false);
    expect(isPublicAddress('not-an-ip')).toBe(false);
  });
});
