import { load } from 'js-yaml';
import { MAX_BODY_BYTES } from '../common/body/json-body';
import { BundleFileError, parseBundleText, toYaml, wantsYaml } from './bundle-yaml';

describe('wantsYaml', () => {
  it('follows ?format first, then an Accept that lists YAML before JSON', () => {
    expect(wantsYaml('yaml', undefined)).toBe(true);
    expect(wantsYaml('json', 'application/yaml')).toBe(false);
    expect(wantsYaml(undefined, 'application/yaml')).toBe(true);
    expect(wantsYaml(undefined, 'text/yaml; q=0.9')).toBe(true);
    expect(wantsYaml(undefined, 'application/json, application/yaml')).toBe(false);
    expect(wantsYaml(undefined, 'application/x-yaml, application/json')).toBe(true);
    expect(wantsYaml(undefined, '*/*')).toBe(false);
    expect(wantsYaml(undefined, undefined)).toBe(false);
  });
});

describe('toYaml', () => {
  it('writes a value twice rather than as an anchor and alias, and reads back equal', () => {
    const shared = { voice_id: 'v' };
    const bundle = { assistants: { a: { cfg: shared }, b: { cfg: shared } } };
    const text = toYaml(bundle);
    expect(text).not.toMatch(/[&*]ref/);
    expect(load(text)).toEqual(bundle);
  });
});

describe('parseBundleText', () => {
  it('reads JSON and YAML as plain data: dates and merge keys stay as written', () => {
    expect(parseBundleText('{"tools": {}}')).toEqual({ tools: {} });
    expect(parseBundleText('tools:\n  t:\n    when: 2026-01-01\n    "<<": x\n')).toEqual({
      tools: { t: { when: '2026-01-01', '<<': 'x' } },
    });
  });

  it('refuses anchors and aliases (an expansion bomb), naming the line', () => {
    const bomb = 'a: &a ["x", "x"]\nb: &b [*a, *a]\nc: [*b, *b]\n';
    expect(() => parseBundleText(bomb)).toThrow(BundleFileError);
    expect(() => parseBundleText(bomb)).toThrow(
      /anchors and aliases are not accepted \(&a at line 1\)/,
    );
    expect(() => parseBundleText('a: *nowhere\n')).toThrow(BundleFileError);
  });

  it('refuses a file over the 1 MB a request body may have, before reading it', () => {
    expect(() => parseBundleText(`x: "${'y'.repeat(MAX_BODY_BYTES)}"\n`)).toThrow(
      /over the 1048576 a bundle may have/,
    );
  });
});
