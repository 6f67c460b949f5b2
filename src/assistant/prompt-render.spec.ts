import {
  formatContextValue,
  renderAssistantTemplates,
  renderTemplate,
  resolveContextPath,
  type TemplateValues,
  utf8Prefix,
} from './prompt-render';

/** Larger than anything the behaviour tests render. */
const LIMIT = 1_000_000;
const render = (template: string, values: TemplateValues) =>
  renderTemplate(template, values, LIMIT).text;

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
        LIMIT,
      ),
    ).toEqual({
      text: 'Asha    g r ',
      missing: ['context.absent', 'context.empty', 'call.caller_number'],
      exceeded: false,
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
        LIMIT,
      ),
    ).toEqual({
      prompt: 'Hi  ',
      start_instruction: null,
      missing: ['context.name', 'call.room_name'],
      exceeded: [],
    });
    expect(
      renderAssistantTemplates(
        {
          assistant_prompt: '{{context.a}}',
          assistant_start_instruction: '{{context.a}} {{context.b}}',
        },
        { context: { b: 1 } },
        LIMIT,
      ),
    ).toEqual({ prompt: '', start_instruction: ' 1', missing: ['context.a'], exceeded: [] });
    expect(renderAssistantTemplates(null, {}, LIMIT)).toEqual({
      prompt: null,
      start_instruction: null,
      missing: [],
      exceeded: [],
    });
  });
});

describe('the render bound', () => {
  const bytes = (text: string) => Buffer.byteLength(text, 'utf8');

  it('renders exactly at the limit, and one byte more is exceeded', () => {
    expect(renderTemplate('ab{{context.v}}', { context: { v: 'cd' } }, 4)).toEqual({
      text: 'abcd',
      missing: [],
      exceeded: false,
    });
    expect(renderTemplate('ab{{context.v}}!', { context: { v: 'cd' } }, 4)).toEqual({
      text: 'abcd',
      missing: [],
      exceeded: true,
    });
    expect(renderTemplate('abcdef', {}, 4)).toMatchObject({ text: 'abcd', exceeded: true });
    expect(renderTemplate('{{context.v | default: "abcdef"}}', {}, 4)).toMatchObject({
      text: 'abcd',
      exceeded: true,
    });
  });

  it('stops a template of many placeholders of one big value at the limit', () => {
    const template = 'Hello {{context.blob}} '.repeat(5_000);
    // Unbounded, this is 4.5 GB of text: more than a string can hold (the render would throw).
    const result = renderTemplate(template, { context: { blob: 'y'.repeat(900_000) } }, 65_536);
    expect(result.exceeded).toBe(true);
    expect(bytes(result.text)).toBe(65_536);
    expect(result.text.startsWith('Hello yyy')).toBe(true);
  });

  it('reads no value after the limit is reached: the work does not grow with the template', () => {
    let reads = 0;
    const context = Object.defineProperty({}, 'v', {
      enumerable: true,
      get: () => {
        reads += 1;
        return 'z'.repeat(1_000);
      },
    }) as Record<string, unknown>;
    for (const count of [100, 10_000]) {
      reads = 0;
      const result = renderTemplate('{{context.v}}'.repeat(count), { context }, 10_500);
      expect(result.exceeded).toBe(true);
      expect(bytes(result.text)).toBe(10_500);
      // Ten values fit whole, the eleventh is cut; the rest of the template is never rendered.
      expect(reads).toBe(11);
    }
  });

  it('cuts on a character boundary, never inside a multi-byte character', () => {
    const result = renderTemplate('{{context.v}}', { context: { v: 'é€😀' } }, 6);
    expect(result).toMatchObject({ text: 'é€', exceeded: true });
    expect(bytes(result.text)).toBe(5);
    expect(renderTemplate('{{context.v}}', { context: { v: 'é€😀' } }, 9).text).toBe('é€😀');
    expect(renderTemplate('{{context.v}}', { context: { v: 'é€😀' } }, 8).text).toBe('é€');
  });

  it('bounds a value rendered as JSON like any other', () => {
    const result = renderTemplate(
      '{{context.list}}'.repeat(1_000),
      { context: { list: Array.from({ length: 1_000 }, (_, i) => ({ id: i })) } },
      50_000,
    );
    expect(result.exceeded).toBe(true);
    expect(bytes(result.text)).toBe(50_000);
  });

  it('bounds the prompt and the start instruction each, and names the one that passed', () => {
    const rendered = renderAssistantTemplates(
      {
        assistant_prompt: '{{context.v}}{{context.v}}',
        assistant_start_instruction: 'Hi {{context.v}}',
      },
      { context: { v: 'x'.repeat(60) } },
      100,
    );
    expect(rendered.exceeded).toEqual(['assistant_prompt']);
    expect(rendered.prompt).toHaveLength(100);
    expect(rendered.start_instruction).toBe(`Hi ${'x'.repeat(60)}`);
  });
});

describe(utf8Prefix.name, () => {
  it('keeps whole characters within the byte count', () => {
    expect(utf8Prefix('abc', 0)).toBe('');
    expect(utf8Prefix('abc', 5)).toBe('abc');
    expect(utf8Prefix('aé', 2)).toBe('a');
    expect(utf8Prefix('a😀', 4)).toBe('a');
    expect(utf8Prefix('a😀', 5)).toBe('a😀');
    expect(utf8Prefix('😀😀', 2)).toBe('');
  });
});
