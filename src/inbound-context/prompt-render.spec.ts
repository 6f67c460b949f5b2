import {
  formatContextValue,
  renderAssistantTemplates,
  renderTemplate,
  resolveContextPath,
  type TemplateValues,
} from './prompt-render';

const render = (template: string, values: TemplateValues) => renderTemplate(template, values).text;

describe(renderTemplate.name, () => {
  const context = {
    name: 'Asha',
    tier: 'gold',
    balance: 1250.5,
    vip: true,
    nothing: null,
    empty: '',
    zero: 0,
    orders: [{ id: 7 }],
    account: { plan: { name: 'Pro', seats: 3 }, tags: ['a', 'b'] },
    'dotted.key': 'literal',
  };
  const call = {
    caller_number: '+919900011122',
    inbound_number: '918012345678',
    room_name: 'room-1',
    inbound_id: '0b7c4f7e-6c1e-4a57-9a55-1f1f0a3c9d11',
    call_type: 'inbound',
  };

  it('replaces keys, with or without whitespace inside the braces', () => {
    expect(
      render('Hi {{context.name}} ({{ context.tier }}, {{  context.name\t}})', { context }),
    ).toBe('Hi Asha (gold, Asha)');
  });

  it('renders non-strings as JSON, null and missing keys as empty text', () => {
    expect(
      render('{{context.balance}}|{{context.vip}}|{{context.nothing}}|{{context.absent}}|', {
        context,
      }),
    ).toBe('1250.5|true|||');
    expect(render('{{context.orders}} {{context.account.tags}}', { context })).toBe(
      '[{"id":7}] ["a","b"]',
    );
    expect(render('{{context.account.plan}}', { context })).toBe('{"name":"Pro","seats":3}');
  });

  it('follows dotted paths into nested objects and arrays, literal dotted keys first', () => {
    expect(
      render('{{context.account.plan.name}}/{{context.account.plan.seats}}', { context }),
    ).toBe('Pro/3');
    expect(render('{{context.orders.0.id}}', { context })).toBe('7');
    expect(render('{{context.dotted.key}}', { context })).toBe('literal');
    expect(render('[{{context.name.length}}][{{context.account.plan.name.x}}]', { context })).toBe(
      '[][]',
    );
  });

  it('empties every placeholder when there are no values', () => {
    expect(
      render('Hello {{context.name}}, tier {{ context.tier }} from {{call.caller_number}}.', {}),
    ).toBe('Hello , tier  from .');
  });

  it('renders a default, in double or single quotes, when the value is missing, null or empty', () => {
    expect(
      render(
        '{{context.absent | default: "friend"}}|{{ context.nothing|default:\'n/a\' }}|{{context.empty | default: "e"}}',
        { context },
      ),
    ).toBe('friend|n/a|e');
    expect(render('{{context.name | default: "friend"}}', { context })).toBe('Asha');
    expect(
      render('{{context.zero | default: "none"}}|{{context.vip | default: "no"}}', { context }),
    ).toBe('0|true');
    expect(render('{{context.name | default: ""}}', {})).toBe('');
    expect(render('{{context.x | default: "it\'s {fine}, | really"}}', {})).toBe(
      "it's {fine}, | really",
    );
    expect(render('{{context.x | default: \'say "hi"\'}}', {})).toBe('say "hi"');
  });

  it('renders call variables and their defaults', () => {
    expect(
      render(
        '{{call.caller_number}} {{call.inbound_number}} {{call.room_name}} {{ call.inbound_id }} {{call.call_type}}',
        { call },
      ),
    ).toBe(`+919900011122 918012345678 room-1 ${call.inbound_id} inbound`);
    expect(
      render('{{call.caller_number | default: "unknown"}}', { call: { caller_number: null } }),
    ).toBe('unknown');
    expect(render('{{call.caller_number}}', { context: { caller_number: 'x' } })).toBe('');
  });

  it('lists the placeholders nothing provided, once each', () => {
    expect(
      renderTemplate(
        '{{context.name}} {{context.absent}} {{context.absent}} {{context.empty}} {{context.gone | default: "g"}} {{call.room_name}} {{call.caller_number}}',
        { context, call: { room_name: 'r' } },
      ),
    ).toEqual({
      text: 'Asha    g r ',
      missing: ['context.absent', 'context.empty', 'call.caller_number'],
    });
  });

  it('leaves other placeholders and malformed ones alone', () => {
    expect(
      render(
        '{{user.name}} {{context}} {context.name} {{context.name} {{call.unknown}} {{context.name | upper}} {{context.name | default: x}}',
        { context, call },
      ),
    ).toBe(
      '{{user.name}} {{context}} {context.name} {{context.name} {{call.unknown}} {{context.name | upper}} {{context.name | default: x}}',
    );
  });

  it('does not read inherited properties', () => {
    expect(
      render('[{{context.constructor}}][{{context.__proto__}}][{{context.name.toString}}]', {
        context,
      }),
    ).toBe('[][][]');
    expect(
      render('[{{call.call_type}}]', { call: Object.create({ call_type: 'x' }) as object }),
    ).toBe('[]');
  });

  it('replaces every occurrence and does not re-expand values or defaults', () => {
    expect(render('{{context.a}}{{context.a}}', { context: { a: '{{context.b}}', b: 'x' } })).toBe(
      '{{context.b}}{{context.b}}',
    );
    expect(render('{{context.a | default: "{{context.b}}"}}', { context: { b: 'x' } })).toBe(
      '{{context.b}}',
    );
  });

  it('exposes its helpers', () => {
    expect(resolveContextPath(context, 'account.plan.seats')).toBe(3);
    expect(formatContextValue(0)).toBe('0');
    expect(formatContextValue('')).toBe('');
  });
});

describe(renderAssistantTemplates.name, () => {
  it('renders prompt and start instruction, keeps a missing one null and merges what is missing', () => {
    expect(
      renderAssistantTemplates(
        {
          assistant_prompt: 'Hi {{context.name}} {{call.room_name}}',
          assistant_start_instruction: null,
        },
        { context: {} },
      ),
    ).toEqual({
      prompt: 'Hi  ',
      start_instruction: null,
      missing: ['context.name', 'call.room_name'],
    });
    expect(
      renderAssistantTemplates(
        {
          assistant_prompt: '{{context.a}}',
          assistant_start_instruction: '{{context.a}} {{context.b}}',
        },
        { context: { b: 1 } },
      ),
    ).toEqual({ prompt: '', start_instruction: ' 1', missing: ['context.a'] });
    expect(renderAssistantTemplates(null, {})).toEqual({
      prompt: null,
      start_instruction: null,
      missing: [],
    });
  });
});
