import { AppException, type FieldError } from '../../common/errors/app.exception';
import { validateOrThrow } from '../../common/validation/validate';
import { CreateToolDto } from './create-tool.dto';
import {
  StaticReturnExecutionConfigDto,
  WebhookExecutionConfigDto,
} from './tool-execution-config.dto';
import { UpdateToolDto } from './update-tool.dto';
import { AttachToolsDto } from './attach-tools.dto';

const webhookTool = (overrides: Record<string, unknown> = {}): Record<string, unknown> => ({
  tool_name: 'get_order_status',
  tool_description: 'Looks up an order.',
  tool_execution_type: 'webhook',
  tool_execution_config: { url: 'https://api.example.com/orders' },
  ...overrides,
});

const staticTool = (value: unknown): Record<string, unknown> => ({
  tool_name: 'opening_hours',
  tool_description: 'Returns the opening hours.',
  tool_execution_type: 'static_return',
  tool_execution_config: { value },
});

const withParams = (...tool_parameters: unknown[]) => webhookTool({ tool_parameters });
const withConfig = (tool_execution_config: unknown) => webhookTool({ tool_execution_config });

/** The field errors a body produces, or [] when valid. */
async function errorsOf(cls: new () => object, body: unknown): Promise<FieldError[]> {
  try {
    await validateOrThrow(cls, body);
    return [];
  } catch (error) {
    if (error instanceof AppException) return (error.data as { errors: FieldError[] }).errors;
    throw error;
  }
}

const fieldsOf = async (body: unknown, cls: new () => object = CreateToolDto) => [
  ...new Set((await errorsOf(cls, body)).map((e) => e.field)),
];

describe(CreateToolDto.name, () => {
  it('accepts a minimal webhook tool and a minimal static tool', async () => {
    expect(await errorsOf(CreateToolDto, webhookTool())).toEqual([]);
    expect(await errorsOf(CreateToolDto, staticTool('closed'))).toEqual([]);
  });

  describe('tool_name', () => {
    it.each([
      ['upper case', 'Get_order'],
      ['leading digit', '1tool'],
      ['hyphen', 'get-order'],
      ['space', 'get order'],
      ['empty', ''],
      ['leading underscore', '_tool'],
      ['dot', 'get.order'],
      ['non-ascii', 'tëst'],
      ['65 characters', 'a'.repeat(65)],
      ['not a string', 42],
      ['null', null],
      ['reserved end_call', 'end_call'],
    ])('rejects %s', async (_label, tool_name) => {
      expect(await fieldsOf(webhookTool({ tool_name }))).toEqual(['tool_name']);
    });

    it('requires it', async () => {
      const { tool_name: _omit, ...body } = webhookTool();
      expect(await fieldsOf(body)).toEqual(['tool_name']);
    });

    it.each([['a1_b2'], ['a'], ['a'.repeat(64)], ['get_order_status_v2'], ['end_call_now']])(
      'accepts %s',
      async (tool_name) => {
        expect(await errorsOf(CreateToolDto, webhookTool({ tool_name }))).toEqual([]);
      },
    );

    it('explains the pattern', async () => {
      expect(await errorsOf(CreateToolDto, webhookTool({ tool_name: 'Bad' }))).toEqual([
        {
          field: 'tool_name',
          message:
            'tool_name must be snake_case: lower-case letters, digits and underscores, starting with a letter',
        },
      ]);
    });
  });

  describe('tool_description', () => {
    it.each([[1], [500]])('accepts %i characters', async (n) => {
      expect(
        await errorsOf(CreateToolDto, webhookTool({ tool_description: 'd'.repeat(n) })),
      ).toEqual([]);
    });
    it.each([[0], [501]])('rejects %i characters', async (n) => {
      expect(await fieldsOf(webhookTool({ tool_description: 'd'.repeat(n) }))).toEqual([
        'tool_description',
      ]);
    });
    it.each([[undefined], [null], [7]])('rejects %p', async (tool_description) => {
      expect(await fieldsOf(webhookTool({ tool_description }))).toEqual(['tool_description']);
    });
  });

  describe('tool_execution_type', () => {
    it.each([['http'], ['Webhook'], [''], [null], [undefined]])(
      'rejects %p',
      async (tool_execution_type) => {
        expect(await fieldsOf(webhookTool({ tool_execution_type }))).toEqual([
          'tool_execution_type',
        ]);
      },
    );

    it('does not report config errors of an unknown type, but still rejects unknown config keys', async () => {
      expect(await fieldsOf(webhookTool({ tool_execution_type: 'ftp' }))).toEqual([
        'tool_execution_type',
      ]);
      expect(
        await fieldsOf(
          webhookTool({ tool_execution_type: 'ftp', tool_execution_config: { path: '/x' } }),
        ),
      ).toEqual(['tool_execution_type', 'tool_execution_config.path']);
    });
  });

  describe('tool_execution_config', () => {
    it.each([[undefined], [null], ['https://x.example'], [[]], [5]])(
      'rejects %p',
      async (config) => {
        expect(await fieldsOf(withConfig(config))).toEqual(['tool_execution_config']);
      },
    );

    it('picks the class from tool_execution_type', async () => {
      const webhook = await validateOrThrow(CreateToolDto, webhookTool());
      expect(webhook.tool_execution_config).toBeInstanceOf(WebhookExecutionConfigDto);
      const fixed = await validateOrThrow(CreateToolDto, staticTool(1));
      expect(fixed.tool_execution_config).toBeInstanceOf(StaticReturnExecutionConfigDto);
    });

    it('rejects the other type’s fields', async () => {
      expect(await fieldsOf(withConfig({ url: 'https://a.example', value: 1 }))).toEqual([
        'tool_execution_config.value',
      ]);
      expect(
        await fieldsOf({
          ...staticTool(1),
          tool_execution_config: { value: 1, url: 'https://a.example' },
        }),
      ).toEqual(['tool_execution_config.url']);
    });
  });

  describe('webhook config', () => {
    it.each([
      ['missing', undefined],
      ['ftp', 'ftp://files.example.com/x'],
      ['no scheme', 'api.example.com/x'],
      ['not a URL', 'not a url'],
      ['a number', 42],
      ['2049 characters', `https://a.example/${'p'.repeat(2049 - 18)}`],
    ])('rejects url %s', async (_label, url) => {
      expect(await fieldsOf(withConfig({ url }))).toEqual(['tool_execution_config.url']);
    });

    it.each([
      ['http://localhost:8080/hook'],
      ['https://api.example.com/x?y=1'],
      [`https://a.example/${'p'.repeat(2048 - 18)}`],
    ])('accepts url %s', async (url) => {
      expect(await errorsOf(CreateToolDto, withConfig({ url }))).toEqual([]);
    });

    it.each([[0], [-1], [60.01], [61], ['10'], [null], [Number.NaN]])(
      'rejects timeout %p',
      async (timeout) => {
        expect(await fieldsOf(withConfig({ url: 'https://a.example', timeout }))).toEqual([
          'tool_execution_config.timeout',
        ]);
      },
    );

    it.each([[0.5], [10], [60]])('accepts timeout %p', async (timeout) => {
      expect(
        await errorsOf(CreateToolDto, withConfig({ url: 'https://a.example', timeout })),
      ).toEqual([]);
    });

    it('accepts up to 50 string headers', async () => {
      const headers = Object.fromEntries(
        Array.from({ length: 50 }, (_, i) => [`X-H${i}`, `v${i}`]),
      );
      expect(
        await errorsOf(CreateToolDto, withConfig({ url: 'https://a.example', headers })),
      ).toEqual([]);
    });

    it.each([
      ['51 headers', Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`X-H${i}`, 'v']))],
      ['a number value', { 'X-Count': 1 }],
      ['a null value', { 'X-Old': null }],
      ['an array', ['a']],
      ['null', null],
      ['a name with a space', { 'X Bad': 'v' }],
      ['a value with a line break', { 'X-Inject': 'a\r\nHost: evil' }],
      ['a header the client sets itself', { 'Content-Length': '5' }],
    ])('rejects headers with %s', async (_label, headers) => {
      expect(await fieldsOf(withConfig({ url: 'https://a.example', headers }))).toEqual([
        'tool_execution_config.headers',
      ]);
    });

    it('rejects unknown keys', async () => {
      expect(
        await errorsOf(CreateToolDto, withConfig({ url: 'https://a.example', method: 'GET' })),
      ).toEqual([{ field: 'tool_execution_config.method', message: 'unknown field' }]);
    });
  });

  describe('static_return config', () => {
    it.each([
      ['a string', 'We open at nine.'],
      ['an empty string', ''],
      ['a number', 42.5],
      ['zero', 0],
      ['false', false],
      ['an object', { a: 1, nested: { b: [1, 'two', { c: null }] }, empty: {} }],
      ['an empty object', {}],
      ['an array', [1, 'two', { three: 3 }, [4], null]],
      ['an empty array', []],
    ])('keeps %s exactly as sent', async (_label, value) => {
      const dto = await validateOrThrow(CreateToolDto, staticTool(value));
      expect((dto.tool_execution_config as StaticReturnExecutionConfigDto).value).toStrictEqual(
        value,
      );
    });

    it('keeps keys class-transformer would drop or choke on, without polluting prototypes', async () => {
      const raw = JSON.parse(
        '{"constructor":"x","toString":"y","__proto__":{"polluted":true},"a":{"constructor":{"b":1}},"c":[{"valueOf":1}]}',
      ) as Record<string, unknown>;
      const dto = await validateOrThrow(CreateToolDto, staticTool(raw));
      expect((dto.tool_execution_config as StaticReturnExecutionConfigDto).value).toBe(raw);
      expect(
        JSON.stringify((dto.tool_execution_config as StaticReturnExecutionConfigDto).value),
      ).toBe(JSON.stringify(raw));
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    });

    it('keeps headers with awkward names as sent', async () => {
      const headers = JSON.parse('{"constructor":"x","toString":"y"}') as Record<string, string>;
      const dto = await validateOrThrow(
        CreateToolDto,
        withConfig({ url: 'https://a.example', headers }),
      );
      expect((dto.tool_execution_config as WebhookExecutionConfigDto).headers).toBe(headers);
      expect(
        await fieldsOf(
          withConfig({ url: 'https://a.example', headers: { constructor: { a: 1 } } }),
        ),
      ).toEqual(['tool_execution_config.headers']);
    });

    it.each([[null], [undefined], [Number.POSITIVE_INFINITY]])('rejects %p', async (value) => {
      expect(await fieldsOf(staticTool(value))).toEqual(['tool_execution_config.value']);
    });

    it('rejects a value over 64 KiB of JSON', async () => {
      expect(await fieldsOf(staticTool('x'.repeat(65_536)))).toEqual([
        'tool_execution_config.value',
      ]);
      expect(await errorsOf(CreateToolDto, staticTool('x'.repeat(65_534)))).toEqual([]);
    });

    /** `levels` containers: `{"a":{"a":...{"a":1}}}` or `[[...[1]]]`. */
    const nested = (levels: number, asArray: boolean): unknown => {
      let value: unknown = 1;
      for (let i = 0; i < levels; i++) value = asArray ? [value] : { a: value };
      return value;
    };

    it.each([false, true])(
      'rejects a value nested more than 20 levels (arrays: %p), naming the limit',
      async (asArray) => {
        expect(await errorsOf(CreateToolDto, staticTool(nested(20, asArray)))).toEqual([]);
        expect(await errorsOf(CreateToolDto, staticTool(nested(21, asArray)))).toEqual([
          {
            field: 'tool_execution_config.value',
            message: 'value must not nest objects and arrays more than 20 levels deep',
          },
        ]);
      },
    );
  });

  describe('tool_parameters', () => {
    it('is optional but not nullable', async () => {
      expect(await errorsOf(CreateToolDto, webhookTool({ tool_parameters: [] }))).toEqual([]);
      expect(await fieldsOf(webhookTool({ tool_parameters: null }))).toEqual(['tool_parameters']);
      expect(await fieldsOf(webhookTool({ tool_parameters: { name: 'a' } }))).toEqual([
        'tool_parameters',
      ]);
    });

    it.each([['string'], ['number'], ['boolean'], ['object'], ['array']])(
      'accepts type %s',
      async (type) => {
        expect(await errorsOf(CreateToolDto, withParams({ name: 'p', type }))).toEqual([]);
      },
    );

    it.each([['integer'], ['String'], [''], [null], [undefined]])(
      'rejects type %p',
      async (type) => {
        expect(
          await fieldsOf(withParams({ name: 'p', type: 'string' }, { name: 'q', type })),
        ).toEqual(['tool_parameters[1].type']);
      },
    );

    it.each([['order_id'], ['OrderId'], ['_private'], ['x1']])('accepts name %s', async (name) => {
      expect(await errorsOf(CreateToolDto, withParams({ name, type: 'string' }))).toEqual([]);
    });

    it.each([['1x'], ['order-id'], ['order id'], [''], ['a'.repeat(65)], [7], [undefined]])(
      'rejects name %p',
      async (name) => {
        expect(await fieldsOf(withParams({ name, type: 'string' }))).toEqual([
          'tool_parameters[0].name',
        ]);
      },
    );

    it('rejects a repeated name on the repeating parameter', async () => {
      const errors = await errorsOf(
        CreateToolDto,
        withParams(
          { name: 'a', type: 'string' },
          { name: 'b', type: 'number' },
          { name: 'a', type: 'boolean' },
        ),
      );
      expect(errors).toEqual([
        {
          field: 'tool_parameters[2].name',
          message: 'name "a" is used by another parameter of this tool',
        },
      ]);
    });

    it('validates description and required', async () => {
      expect(
        await errorsOf(
          CreateToolDto,
          withParams({ name: 'a', type: 'string', description: 'd', required: false }),
        ),
      ).toEqual([]);
      expect(await fieldsOf(withParams({ name: 'a', type: 'string', description: 5 }))).toEqual([
        'tool_parameters[0].description',
      ]);
      expect(await fieldsOf(withParams({ name: 'a', type: 'string', required: 'true' }))).toEqual([
        'tool_parameters[0].required',
      ]);
      expect(await fieldsOf(withParams({ name: 'a', type: 'string', required: null }))).toEqual([
        'tool_parameters[0].required',
      ]);
    });

    it('accepts enum on a string parameter', async () => {
      expect(
        await errorsOf(CreateToolDto, withParams({ name: 'a', type: 'string', enum: ['x', 'y'] })),
      ).toEqual([]);
    });

    it.each([['number'], ['boolean'], ['object'], ['array']])(
      'rejects enum on a %s parameter',
      async (type) => {
        expect(await errorsOf(CreateToolDto, withParams({ name: 'a', type, enum: ['x'] }))).toEqual(
          [
            {
              field: 'tool_parameters[0].enum',
              message: 'enum is allowed only on string parameters',
            },
          ],
        );
      },
    );

    it.each([
      ['empty', []],
      ['a number in it', ['x', 1]],
      ['not an array', 'x'],
      ['null', null],
      ['duplicates', ['x', 'x']],
    ])('rejects enum %s', async (_label, values) => {
      expect(await fieldsOf(withParams({ name: 'a', type: 'string', enum: values }))).toEqual([
        'tool_parameters[0].enum',
      ]);
    });

    it('rejects unknown parameter keys and non-object parameters', async () => {
      expect(
        await errorsOf(CreateToolDto, withParams({ name: 'a', type: 'string', format: 'date' })),
      ).toEqual([{ field: 'tool_parameters[0].format', message: 'unknown field' }]);
      expect(await fieldsOf(withParams('a'))).toEqual(['tool_parameters[0]']);
      expect(await fieldsOf(withParams([]))).toEqual(['tool_parameters[0]']);
      expect(await fieldsOf(withParams([{ name: 'a', type: 'string' }]))).toEqual([
        'tool_parameters[0]',
      ]);
    });
  });

  it('rejects unknown top-level fields', async () => {
    expect(await errorsOf(CreateToolDto, webhookTool({ tool_id: 'x' }))).toEqual([
      { field: 'tool_id', message: 'unknown field' },
    ]);
  });
});

describe(UpdateToolDto.name, () => {
  it('accepts an empty patch and any subset', async () => {
    expect(await errorsOf(UpdateToolDto, {})).toEqual([]);
    expect(await errorsOf(UpdateToolDto, { tool_description: 'new' })).toEqual([]);
  });

  it('keeps the create rules for the fields it has', async () => {
    expect(await fieldsOf({ tool_name: 'Bad' }, UpdateToolDto)).toEqual(['tool_name']);
    expect(await fieldsOf({ tool_parameters: [{ name: 'a', type: 'x' }] }, UpdateToolDto)).toEqual([
      'tool_parameters[0].type',
    ]);
  });

  it('accepts a header patch with null and masked values', async () => {
    expect(
      await errorsOf(UpdateToolDto, {
        tool_execution_config: { headers: { Authorization: '****', 'X-Old': null } },
      }),
    ).toEqual([]);
    expect(
      await fieldsOf({ tool_execution_config: { headers: { 'X-Count': 1 } } }, UpdateToolDto),
    ).toEqual(['tool_execution_config.headers']);
    expect(await fieldsOf({ tool_execution_config: { other: 1 } }, UpdateToolDto)).toEqual([
      'tool_execution_config.other',
    ]);
  });

  it('passes a static value through untouched', async () => {
    const value = { a: [1, { b: 2 }] };
    const dto = await validateOrThrow(UpdateToolDto, { tool_execution_config: { value } });
    expect(dto.tool_execution_config?.value).toBe(value);
  });
});

describe(AttachToolsDto.name, () => {
  const id = '0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11';
  it('de-duplicates ids', async () => {
    const dto = await validateOrThrow(AttachToolsDto, { tool_ids: [id, id.toUpperCase(), id] });
    expect(dto.tool_ids).toEqual([id]);
  });
  it.each([[[]], [['not-a-uuid']], [id], [null], [undefined], [[1]]])(
    'rejects %p',
    async (tool_ids) => {
      expect(await fieldsOf({ tool_ids }, AttachToolsDto)).toEqual(['tool_ids']);
    },
  );
});
