import { SecretCipher } from '../../secret/secret-cipher';
import { resolveWithValues } from '../strategy-webhook.client';
import type { ResolvedMapping } from '../../inbound-context/lookup.repository';
import {
  entryOf,
  FIELD,
  openRecord,
  recordFields,
  referencedSecrets,
  routingOf,
  sealRecord,
  tombstone,
  type RecordReader,
} from './routing-entry';

const cipher = SecretCipher.fromBase64('dGVzdC1vbmx5IHNlY3JldHMga2V5IDAxMjM0NTY3ODk=');

const strategy = {
  strategy_id: 'st-1',
  strategy_config: {
    url: 'https://ctx.example/{{secret.PATH}}',
    headers: { Authorization: 'Bearer {{secret.TOKEN}}', 'X-Key': 'plain-header-value' },
  },
} as unknown as NonNullable<ResolvedMapping['strategy']>;

const found = {
  mapping: {
    inbound_id: 'in-1',
    user_id: 'u-1',
    service: 'exotel',
    assistant_id: 'as-1',
    assistant_version: 2,
    assistant_variants: null,
    inbound_context_strategy_id: 'st-1',
    phone_number_normalized: '919900011122',
    active_phone_number: '919900011122',
  },
  assistant: { assistant_id: 'as-1', assistant_name: 'v2' },
  version: 2,
  owner: null,
  strategy,
} as unknown as ResolvedMapping;

const reader =
  (records: Record<string, unknown>): RecordReader =>
  <T>(field: string) =>
    records[field] as T | null | undefined;

describe('routing entries', () => {
  it('are small: ids and the number, and name the records they route to', () => {
    const entry = entryOf(found, 7);
    expect(entry).toEqual({
      t: 7,
      i: 'in-1',
      u: 'u-1',
      c: 'exotel',
      p: '919900011122',
      a: 'as-1',
      v: 2,
      s: 'st-1',
    });
    expect(JSON.stringify(entry).length).toBeLessThan(160);
    expect(recordFields(entry)).toEqual(['o:u-1', 'a:as-1', 'v:as-1:2', 's:st-1']);
  });

  it('name the secrets the strategy references', () => {
    expect(referencedSecrets(strategy).sort()).toEqual(['PATH', 'TOKEN']);
  });

  it('route through the pinned version, the working copy when it is gone, and detached when a record is deleted', () => {
    const entry = entryOf(found, 1);
    const working = { assistant_id: 'as-1', assistant_name: 'working' };
    const pinned = { assistant_id: 'as-1', assistant_name: 'v2' };
    const stored = { strategy, values: { TOKEN: 't', PATH: 'p' } };
    const all = {
      [FIELD.assistant('as-1')]: working,
      [FIELD.version('as-1', 2)]: pinned,
      [FIELD.strategy('st-1')]: stored,
    };
    const routed = routingOf(entry, reader(all));
    expect(routed.found).toMatchObject({ assistant: pinned, version: 2, strategy });
    expect(routed.secretValues).toEqual({ TOKEN: 't', PATH: 'p' });
    expect(routed.owner).toMatchObject({ user_id: 'u-1', webhook_secret: null });
    const noVersion = routingOf(entry, reader({ ...all, [FIELD.version('as-1', 2)]: undefined }));
    expect(noVersion.found).toMatchObject({ assistant: working, version: null });
    const deleted = routingOf(
      entry,
      reader({ [FIELD.assistant('as-1')]: null, [FIELD.strategy('st-1')]: null }),
    );
    expect(deleted.found.assistant).toBeNull();
    expect(deleted.found.strategy).toBeNull();
    expect(deleted.found.mapping).toMatchObject({
      assistant_id: null,
      inbound_context_strategy_id: null,
    });
  });

  it('keep no secret, header or signing secret in clear, and open only under their own field', () => {
    const values = { TOKEN: 'token-value', PATH: 'p/1' };
    const sealed = sealRecord(cipher, 's:st-1', 'u-1', { strategy, values }, 3);
    for (const clear of ['token-value', 'plain-header-value', 'TOKEN'])
      expect(sealed).not.toContain(clear);
    expect(openRecord<{ values: object }>(cipher, 's:st-1', sealed)?.values).toEqual(values);
    expect(() => openRecord(cipher, 's:st-2', sealed)).toThrow();
    expect(openRecord(cipher, 's:st-1', tombstone(4))).toBeNull();
  });

  it('resolve references from the kept values; a missing one fails naming it, one bound elsewhere is blocked', () => {
    const config = strategy.strategy_config;
    const here = ['https://ctx.example'];
    const values = {
      TOKEN: { value: 'token-value', allowed_origins: here },
      PATH: { value: 'p/1', allowed_origins: here },
    };
    expect(resolveWithValues({ url: config.url, headers: config.headers }, values)).toEqual({
      ok: true,
      url: 'https://ctx.example/p%2F1',
      headers: { Authorization: 'Bearer token-value', 'X-Key': 'plain-header-value' },
      secrets_used: ['PATH', 'TOKEN'],
    });
    expect(
      resolveWithValues(
        { url: config.url, headers: config.headers },
        { PATH: { value: 'x', allowed_origins: here } },
      ),
    ).toMatchObject({
      ok: false,
      reason: 'secret_not_found',
      error: 'secret TOKEN does not exist',
    });
    expect(
      resolveWithValues(
        { url: config.url, headers: config.headers },
        { ...values, TOKEN: { value: 'token-value', allowed_origins: ['https://other.example'] } },
      ),
    ).toMatchObject({ ok: false, reason: 'blocked' });
  });
});
