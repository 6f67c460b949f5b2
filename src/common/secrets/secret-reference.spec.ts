import { looksLikeCredential } from './masking';
import {
  madeOfReferencesAndPlainText,
  malformedReference,
  referenceInOrigin,
  referencedNames,
  substituteReferences,
} from './secret-reference';

describe('secret references', () => {
  it('finds each referenced name once, in order', () => {
    expect(referencedNames('{{secret.A}}-{{secret.B_2}}-{{secret.A}}')).toEqual(['A', 'B_2']);
    expect(referencedNames('no reference {{context.name}}')).toEqual([]);
  });

  it.each([
    '{{secret.lower}}',
    '{{ secret.A }}',
    '{{secret.A}',
    '{{SECRET.A}}',
    '{{secret.}}',
    `{{secret.A${'B'.repeat(64)}}}`,
  ])('%s is malformed', (text) => {
    expect(malformedReference(`Bearer ${text}`)).not.toBeNull();
  });

  it('well-formed references and plain braces are not malformed', () => {
    expect(malformedReference('Bearer {{secret.CRM_TOKEN}}')).toBeNull();
    expect(malformedReference('{"a": 1} {{context.x}}')).toBeNull();
  });

  it.each([
    ['https://{{secret.H}}.example.com/x', true],
    ['https://example.com:{{secret.P}}/x', true],
    ['{{secret.S}}://example.com/', true],
    ['https://u:{{secret.P}}@example.com/x', false],
    ['https://example.com/{{secret.P}}?k={{secret.Q}}#{{secret.F}}', false],
    ['https://example.com/x', false],
  ])('%s holds a reference in its origin: %s', (url, expected) => {
    expect(referenceInOrigin(url)).toBe(expected);
  });

  it('substitutes values, percent-encoded in a URL and as they are in a header', () => {
    const values = new Map([['T', 'a b&c/d']]);
    expect(substituteReferences('https://x.test/{{secret.T}}', values, 'url')).toBe(
      'https://x.test/a%20b%26c%2Fd',
    );
    expect(substituteReferences('Bearer {{secret.T}}', values, 'text')).toBe('Bearer a b&c/d');
    expect(() => substituteReferences('{{secret.U}}', values, 'text')).toThrow('no value');
  });

  it.each([
    ['Bearer {{secret.T}}', true, true],
    ['{{secret.T}}', true, true],
    ['Token {{secret.A}}:{{secret.B}}', true, true],
    ['tenant-{{secret.T}}', false, true],
    ['mykey {{secret.T}}', true, false],
    ['Bearer sk_live_abcdef123456 {{secret.T}}', false, false],
    ['Bearer sk_live_abcdef123456', false, false],
  ])('%s (sensitive name: %s) is shown as written: %s', (value, sensitive, expected) => {
    expect(madeOfReferencesAndPlainText(value, sensitive, looksLikeCredential)).toBe(expected);
  });
});
