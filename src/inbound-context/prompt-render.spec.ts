import {
  formatContextValue,
  renderContextTemplate,
  renderOptional,
  resolveContextPath,
} from './prompt-render';

describe(renderContextTemplate.name, () => {
  const context = {
    name: 'Asha',
    tier: 'gold',
    balance: 1250.5,
    vip: true,
    nothing: null,
    orders: [{ id: 7 }],
    account: { plan: { name: 'Pro', seats: 3 }, tags: ['a', 'b'] },
    'dotted.key': 'literal',
  };

  it('replaces keys, with or without whitespace inside the braces', () => {
    expect(
      renderContextTemplate(
        'Hi {{context.name}} ({{ context.tier }}, {{  context.name\t}})',
        context,
      ),
    ).toBe('Hi Asha (gold, Asha)');
  });

  it('renders non-strings as JSON, null and missing keys as empty text', () => {
    expect(
      renderContextTemplate(
        '{{context.balance}}|{{context.vip}}|{{context.nothing}}|{{context.absent}}|',
        context,
      ),
    ).toBe('1250.5|true|||');
    expect(renderContextTemplate('{{context.orders}} {{context.account.tags}}', context)).toBe(
      '[{"id":7}] ["a","b"]',
    );
    expect(renderContextTemplate('{{context.account.plan}}', context)).toBe(
      '{"name":"Pro","seats":3}',
    );
  });

  it('follows dotted paths into nested objects and arrays, literal dotted keys first', () => {
    expect(
      renderContextTemplate(
        '{{context.account.plan.name}}/{{context.account.plan.seats}}',
        context,
      ),
    ).toBe('Pro/3');
    expect(renderContextTemplate('{{context.orders.0.id}}', context)).toBe('7');
    expect(renderContextTemplate('{{context.dotted.key}}', context)).toBe('literal');
    expect(
      renderContextTemplate('[{{context.name.length}}][{{context.account.plan.name.x}}]', context),
    ).toBe('[][]');
  });

  it('empties every context placeholder when there is no context', () => {
    expect(renderContextTemplate('Hello {{context.name}}, tier {{ context.tier }}.', null)).toBe(
      'Hello , tier .',
    );
  });

  it('leaves other placeholders and malformed ones alone', () => {
    expect(
      renderContextTemplate('{{user.name}} {{context}} {context.name} {{context.name}', context),
    ).toBe('{{user.name}} {{context}} {context.name} {{context.name}');
  });

  it('does not read inherited properties', () => {
    expect(
      renderContextTemplate(
        '[{{context.constructor}}][{{context.__proto__}}][{{context.name.toString}}]',
        context,
      ),
    ).toBe('[][][]');
  });

  it('replaces every occurrence and does not re-expand values', () => {
    expect(
      renderContextTemplate('{{context.a}}{{context.a}}', { a: '{{context.b}}', b: 'x' }),
    ).toBe('{{context.b}}{{context.b}}');
  });

  it('keeps null templates null', () => {
    expect(renderOptional(null, context)).toBeNull();
    expect(renderOptional('{{context.name}}', context)).toBe('Asha');
  });

  it('exposes its helpers', () => {
    expect(resolveContextPath(context, 'account.plan.seats')).toBe(3);
    expect(formatContextValue(0)).toBe('0');
    expect(formatContextValue('')).toBe('');
  });
});
