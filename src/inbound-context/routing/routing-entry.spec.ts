import { SecretCipher } from '../../secret/secret-cipher';
import { resolveWithValues } from '../strategy-webhook.client';
import type { ResolvedMapping } from '../lookup.repository';
import {
  openRouting,
  referencedSecrets,
  routingFields,
  sealRouting,
  type Routing,
} from './routing-entry';

const cipher = SecretCipher.fromBase64('dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=');

const found = {
  mapping: { inbound_id: 'in-1', user_id: 'u-1', active_phone_number: '919900011122' },
  assistant: null,
  version: null,
  owner: null,
  strategy: {
    strategy_config: {
      url: 'https://ctx.example/{{secret.PATH}}',
      headers: { Authorization: 'Bearer {{secret.TOKEN}}', 'X-Key': 'plain-header-value' },
    },
  },
} as unknown as ResolvedMapping;

const routing: Routing = {
  found,
  owner: {
    user_id: 'u-1',
    webhook_secret: 'whsec_current',
    webhook_secret_previous: null,
    webhook_secret_previous_expires_at: new Date('2030-01-01T00:00:00Z'),
  },
  secretValues: { TOKEN: 'token-value', PATH: 'p/1' },
};

describe('routing entries', () => {
  it('are named by id, and by number while active', () => {
    expect(routingFields(found)).toEqual(['r1:id:in-1', 'r1:number:919900011122']);
  });

  it('name the secrets the strategy references', () => {
    expect(referencedSecrets(found).sort()).toEqual(['PATH', 'TOKEN']);
  });

  it('keep no secret, header or signing secret in clear, and open only under their own field', () => {
    const sealed = sealRouting(cipher, 'r1:id:in-1', routing);
    for (const clear of ['token-value', 'plain-header-value', 'whsec_current', 'TOKEN'])
      expect(sealed).not.toContain(clear);
    const opened = openRouting(cipher, 'r1:id:in-1', sealed);
    expect(opened.secretValues).toEqual(routing.secretValues);
    expect(opened.owner?.webhook_secret_previous_expires_at).toEqual(
      routing.owner?.webhook_secret_previous_expires_at,
    );
    expect(() => openRouting(cipher, 'r1:id:other', sealed)).toThrow();
  });

  it('resolve references from the kept values; a missing one fails naming it', () => {
    const config = found.strategy!.strategy_config;
    expect(
      resolveWithValues({ url: config.url, headers: config.headers }, routing.secretValues),
    ).toEqual({
      ok: true,
      url: 'https://ctx.example/p%2F1',
      headers: { Authorization: 'Bearer token-value', 'X-Key': 'plain-header-value' },
      secrets_used: ['PATH', 'TOKEN'],
    });
    expect(
      resolveWithValues({ url: config.url, headers: config.headers }, { PATH: 'x' }),
    ).toMatchObject({
      ok: false,
      error: 'secret TOKEN does not exist',
    });
  });
});
