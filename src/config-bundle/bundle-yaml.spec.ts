import { load } from 'js-yaml';
import { toYaml, wantsYaml } from './bundle-yaml';

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
