import { argumentsObject, validateToolArguments } from './tool-arguments';
import type { ToolParameter } from './tool.types';

const p = (
  name: string,
  type: ToolParameter['type'],
  extra: Partial<ToolParameter> = {},
): ToolParameter => ({
  name,
  type,
  required: true,
  ...extra,
});

describe('validateToolArguments', () => {
  const params: ToolParameter[] = [
    p('order_id', 'string'),
    p('quantity', 'number'),
    p('gift', 'boolean', { required: false }),
    p('address', 'object', { required: false }),
    p('items', 'array', { required: false }),
    p('speed', 'string', { required: false, enum: ['standard', 'express'] }),
  ];

  it('accepts valid arguments and returns exactly them', () => {
    const args = {
      order_id: 'A1',
      quantity: 2.5,
      gift: false,
      address: { city: 'Pune' },
      items: [1, 'x'],
      speed: 'express',
    };
    expect(validateToolArguments(params, args)).toEqual({ ok: true, arguments: args });
  });

  it('accepts only the required arguments', () => {
    expect(validateToolArguments(params, { order_id: '', quantity: 0 })).toEqual({
      ok: true,
      arguments: { order_id: '', quantity: 0 },
    });
  });

  it('drops optional arguments sent as null', () => {
    expect(
      validateToolArguments(params, { order_id: 'A', quantity: 1, speed: null, address: null }),
    ).toEqual({
      ok: true,
      arguments: { order_id: 'A', quantity: 1 },
    });
  });

  it('accepts the JSON text of an object, as models often send it', () => {
    expect(validateToolArguments(params, '{"order_id":"A","quantity":3}')).toEqual({
      ok: true,
      arguments: { order_id: 'A', quantity: 3 },
    });
  });

  it.each<[string, unknown, string]>([
    ['missing required', { quantity: 1 }, 'missing required argument "order_id" (string)'],
    [
      'required sent as null',
      { order_id: null, quantity: 1 },
      'argument "order_id" must be a string, got null',
    ],
    [
      'string as number',
      { order_id: 5, quantity: 1 },
      'argument "order_id" must be a string, got number',
    ],
    [
      'number as string',
      { order_id: 'A', quantity: '5' },
      'argument "quantity" must be a number, got string',
    ],
    [
      'NaN is not a number',
      { order_id: 'A', quantity: Number.NaN },
      'argument "quantity" must be a number, got non-finite number',
    ],
    [
      'Infinity is not a number',
      { order_id: 'A', quantity: Infinity },
      'argument "quantity" must be a number, got non-finite number',
    ],
    [
      'boolean as string',
      { order_id: 'A', quantity: 1, gift: 'true' },
      'argument "gift" must be a boolean, got string',
    ],
    [
      'object as array',
      { order_id: 'A', quantity: 1, address: [] },
      'argument "address" must be an object, got array',
    ],
    [
      'array as object',
      { order_id: 'A', quantity: 1, items: { 0: 1 } },
      'argument "items" must be an array, got object',
    ],
    [
      'enum',
      { order_id: 'A', quantity: 1, speed: 'fast' },
      'argument "speed" must be one of "standard", "express", got "fast"',
    ],
    [
      'unknown argument',
      { order_id: 'A', quantity: 1, coupon: 'X' },
      'unknown argument "coupon"; the tool accepts: order_id, quantity, gift, address, items, speed',
    ],
  ])('refuses %s', (_, args, problem) => {
    const check = validateToolArguments(params, args);
    expect(check.ok).toBe(false);
    if (check.ok) return;
    expect(check.problems).toEqual([problem]);
    expect(check.error).toBe(`Invalid arguments: ${problem}.`);
  });

  it('lists every problem at once', () => {
    const check = validateToolArguments(params, { quantity: 'x', a: 1, b: 2 });
    expect(check).toEqual({
      ok: false,
      problems: [
        'missing required argument "order_id" (string)',
        'argument "quantity" must be a number, got string',
        'unknown arguments "a", "b"; the tool accepts: order_id, quantity, gift, address, items, speed',
      ],
      error:
        'Invalid arguments: missing required argument "order_id" (string); argument "quantity" must be a number, got string; unknown arguments "a", "b"; the tool accepts: order_id, quantity, gift, address, items, speed.',
    });
  });

  it.each<[unknown, string]>([
    [[1, 2], 'array'],
    [42, 'number'],
    ['not json', 'string'],
    ['[1]', 'string'],
  ])('refuses arguments that are not an object: %j', (raw, type) => {
    expect(validateToolArguments(params, raw)).toEqual({
      ok: false,
      problems: [`Invalid arguments: expected a JSON object of named arguments, got ${type}.`],
      error: `Invalid arguments: expected a JSON object of named arguments, got ${type}.`,
    });
  });

  it('a tool without parameters takes no arguments', () => {
    expect(validateToolArguments([], undefined)).toEqual({ ok: true, arguments: {} });
    expect(validateToolArguments([], {})).toEqual({ ok: true, arguments: {} });
    expect(validateToolArguments([], { x: 1 })).toMatchObject({
      ok: false,
      problems: ['unknown argument "x"; the tool takes no arguments'],
    });
  });

  it('treats a parameter without `required` as required', () => {
    const legacy = [{ name: 'q', type: 'string' } as ToolParameter];
    expect(validateToolArguments(legacy, {})).toMatchObject({
      ok: false,
      problems: ['missing required argument "q" (string)'],
    });
  });
});

describe('argumentsObject', () => {
  it.each<[unknown, unknown]>([
    [undefined, {}],
    [null, {}],
    ['', {}],
    ['  ', {}],
    [{ a: 1 }, { a: 1 }],
    ['{"a":1}', { a: 1 }],
    ['{', null],
    ['"x"', null],
    [true, null],
  ])('%j → %j', (raw, expected) => {
    expect(argumentsObject(raw)).toEqual(expected);
  });
});
