import { SecretUsage, type SecretUseSource } from './secret-usage';

const url = (name: string) => ({
  field: 'url',
  value: `https://example.com/?k={{secret.${name}}}`,
  context: 'url' as const,
  destination: 'https://example.com',
});
const source =
  (id: string, ...names: string[]): SecretUseSource =>
  () =>
    Promise.resolve([{ resource_id: id, fields: names.map(url) }]);

describe(SecretUsage.name, () => {
  it('lists uses in resource-type order, whatever order the modules registered in', async () => {
    const usage = new SecretUsage();
    usage.register('assistant_version', source('v', 'A'));
    usage.register('assistant', source('a', 'A'));
    usage.register('inbound_context_strategy', source('s', 'A', 'B'));
    usage.register('tool', source('t', 'A'));
    usage.assertEveryType();
    const uses = await usage.byName('user');
    expect(uses.get('A')?.map((use) => use.resource_type)).toEqual([
      'tool',
      'inbound_context_strategy',
      'assistant',
      'assistant_version',
    ]);
    expect(uses.get('B')).toEqual([
      { resource_type: 'inbound_context_strategy', resource_id: 's', field: 'url' },
    ]);
  });

  it('refuses to start, and to answer, while a resource type has no source', async () => {
    const usage = new SecretUsage();
    usage.register('tool', source('t', 'A'));
    usage.register('assistant', source('a', 'A'));
    expect(() => usage.assertEveryType()).toThrow(/inbound_context_strategy, assistant_version/);
    await expect(usage.byName('user')).rejects.toThrow(/inbound_context_strategy/);
  });

  it('refuses a second source for one type', () => {
    const usage = new SecretUsage();
    usage.register('tool', source('t'));
    expect(() => usage.register('tool', source('u'))).toThrow(/twice/);
  });
});
