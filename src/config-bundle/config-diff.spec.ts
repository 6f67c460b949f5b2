import type { ConfigBundle } from './config-bundle.types';
import { diffBundles, sameAs } from './config-diff';

const bundle = (over: Partial<ConfigBundle> = {}): ConfigBundle => ({
  assistants: {},
  tools: {},
  strategies: {},
  inbound: {},
  secrets: [],
  ...over,
});

describe('sameAs', () => {
  it('compares the keys an object names, arrays and scalars whole', () => {
    expect(sameAs({ a: 1 }, { a: 1, b: 2 })).toBe(true);
    expect(sameAs({ a: { x: 1 } }, { a: { x: 1, y: 2 } })).toBe(true);
    expect(sameAs({ a: 2 }, { a: 1 })).toBe(false);
    expect(sameAs(['x'], ['x', 'y'])).toBe(false);
    expect(sameAs(null, null)).toBe(true);
    expect(sameAs('****', '****')).toBe(true);
  });
});

describe('diffBundles', () => {
  const current = bundle({
    tools: { a: { tool_description: 'A' }, b: { tool_description: 'B' } },
    assistants: { Desk: { assistant_prompt: 'p', tools: ['a'] } },
    inbound: { '+91 80 1234 5678': { assistant: 'Desk', is_active: true } },
  });

  it('creates, updates the changed fields, matches a number whatever its spelling', () => {
    const changes = diffBundles(
      current,
      {
        tools: { a: { tool_description: 'A2' }, c: { tool_description: 'C' } },
        strategies: {},
        assistants: { Desk: { assistant_prompt: 'p', tools: ['a'] } },
        inbound: { '+918012345678': { assistant: 'Desk', is_active: false } },
      },
      false,
    );
    expect(changes).toEqual([
      { action: 'update', resource_type: 'tools', name: 'a', fields: ['tool_description'] },
      { action: 'create', resource_type: 'tools', name: 'c', fields: ['tool_description'] },
      {
        action: 'update',
        resource_type: 'inbound',
        name: '+91 80 1234 5678',
        fields: ['is_active'],
      },
    ]);
  });

  it('deletes what the bundle leaves out only with prune, dependents first', () => {
    const wanted = { tools: {}, strategies: {}, assistants: {}, inbound: {} };
    expect(diffBundles(current, wanted, false)).toEqual([]);
    expect(
      diffBundles(current, wanted, true).map((c) => `${c.action} ${c.resource_type} ${c.name}`),
    ).toEqual([
      'delete inbound +91 80 1234 5678',
      'delete assistants Desk',
      'delete tools a',
      'delete tools b',
    ]);
  });
});
