import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { VALIDATOR_OPTIONS } from './validate';
import {
  Optional,
  ValidateEnum,
  ValidateHeaders,
  ValidateHttpUrl,
  ValidateIso8601,
  ValidateJsonObject,
  ValidateNestedObject,
  ValidatePhoneNumber,
  ValidateText,
  ValidateUuid,
} from './validation';
import { flattenValidationErrors } from './validation-errors';

class Leaf {
  @ValidateText(1, 5)
  name: string;
}

class Sample {
  @ValidateText(1, 5)
  required_text: string;

  @ValidateText(0, 3, { optional: true })
  not_null_text?: string;

  @ValidateText(0, 3, { optional: true, nullable: true })
  nullable_text?: string | null;

  @ValidateText(1, 5, {
    requiredWhen: { when: (body) => body.flag === true, reason: 'when flag is true' },
  })
  conditional_text?: string;

  @Optional()
  flag?: boolean;

  @ValidateEnum(['a', 'b'], { optional: true, nullable: true })
  choice?: string;

  @ValidateUuid({ optional: true, nullable: true })
  uuid?: string | null;

  @ValidateUuid({ optional: true, each: true })
  uuids?: string[];

  @ValidateHttpUrl(30, { optional: true })
  url?: string;

  @ValidateHeaders({ max: 1, allowNull: true, optional: true })
  headers?: Record<string, string | null>;

  @ValidateJsonObject(20, { optional: true })
  context?: Record<string, unknown>;

  @ValidateIso8601({ optional: true })
  from?: string;

  @ValidatePhoneNumber()
  phone: string;

  @ValidateNestedObject(() => Leaf, { optional: true, nullable: true })
  leaf?: Leaf | null;
}

/** Where `@ApiProperty` stores a property's schema (the package does not export the key). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';

const valid = { required_text: 'abc', phone: '+91 80 1234' };

async function errorsOf(body: Record<string, unknown>) {
  const instance = plainToInstance(Sample, body, { enableImplicitConversion: false });
  return flattenValidationErrors(await validate(instance, VALIDATOR_OPTIONS));
}

function schemaOf(property: keyof Sample): Record<string, unknown> {
  return Reflect.getMetadata(API_MODEL_PROPERTIES, Sample.prototype, property) as Record<
    string,
    unknown
  >;
}

describe('validation decorators', () => {
  it('accept a body that follows every rule', async () => {
    expect(
      await errorsOf({
        ...valid,
        not_null_text: '',
        nullable_text: null,
        choice: null,
        uuid: null,
        uuids: ['0b6f1c7e-3f7a-4d3b-9a51-5f0c6d2e8a11'],
        url: 'http://localhost/hook',
        headers: { 'X-Old': null },
        context: { a: 1 },
        from: '2025-01-31T09:30:00Z',
        leaf: null,
      }),
    ).toEqual([]);
  });

  it('give one message per failing field: missing, not a string, or out of bounds', async () => {
    expect(await errorsOf({ phone: valid.phone })).toEqual([
      { field: 'required_text', message: 'required_text is required' },
    ]);
    expect(await errorsOf({ ...valid, required_text: 7 })).toEqual([
      { field: 'required_text', message: 'required_text must be a string' },
    ]);
    expect(await errorsOf({ ...valid, required_text: '' })).toEqual([
      { field: 'required_text', message: 'required_text must be 1-5 characters long' },
    ]);
  });

  it('refuse null in an optional field unless it is nullable', async () => {
    expect(await errorsOf({ ...valid, not_null_text: null })).toEqual([
      { field: 'not_null_text', message: 'not_null_text must be a string' },
    ]);
    expect(await errorsOf({ ...valid, nullable_text: null })).toEqual([]);
  });

  it('require a field only while its condition holds, null counting as missing', async () => {
    expect(await errorsOf({ ...valid, conditional_text: null })).toEqual([]);
    expect(await errorsOf({ ...valid, flag: true, conditional_text: null })).toEqual([
      { field: 'conditional_text', message: 'conditional_text is required when flag is true' },
    ]);
    expect(await errorsOf({ ...valid, flag: true, conditional_text: 'x'.repeat(6) })).toEqual([
      { field: 'conditional_text', message: 'conditional_text must be 1-5 characters long' },
    ]);
  });

  it.each([
    ['choice', 'c', 'choice must be one of the following values: a, b'],
    ['uuid', 'not-a-uuid', 'uuid must be a UUID'],
    ['uuids', ['x'], 'each value in uuids must be a UUID'],
    ['url', 'ftp://example.com', 'url must be an http(s) URL'],
    [
      'url',
      `http://example.com/${'x'.repeat(20)}`,
      'url must be shorter than or equal to 30 characters',
    ],
    ['headers', { 'X-A': 'a', 'X-B': 'b' }, 'headers must have at most 1 headers'],
    ['context', { a: 'x'.repeat(20) }, 'context must be a JSON object of at most 20 bytes'],
    ['from', '2025-02-30', 'from must be an ISO 8601 timestamp, e.g. 2025-01-31T09:30:00Z'],
    [
      'phone',
      '+1 234',
      'phone must be a phone number: +<country code> <number>, or a national number of IN (5-20 digits)',
    ],
    [
      'phone',
      '+999 123456',
      'phone must be a phone number: +<country code> <number>, or a national number of IN (5-20 digits)',
    ],
    ['leaf', 'x', 'leaf must be an object'],
  ])('refuse a bad %s', async (field, value, message) => {
    const errors = await errorsOf({ ...valid, [field]: value });
    expect(errors.map((e) => e.message)).toContain(message);
    expect(new Set(errors.map((e) => e.field))).toEqual(new Set([field]));
  });

  it('validate a nested object with its own class, naming the full path', async () => {
    expect(await errorsOf({ ...valid, leaf: {} })).toEqual([
      { field: 'leaf.name', message: 'name is required' },
    ]);
  });

  it('keep headers exactly as sent', () => {
    const headers = { constructor: 'x', toString: 'y' };
    const instance = plainToInstance(Sample, { ...valid, headers });
    expect(instance.headers).toBe(headers);
  });

  it('document the same constraints in the OpenAPI schema', () => {
    expect(schemaOf('required_text')).toMatchObject({ type: String, minLength: 1, maxLength: 5 });
    expect(schemaOf('required_text')).not.toHaveProperty('nullable');
    expect(schemaOf('not_null_text')).toMatchObject({ required: false, maxLength: 3 });
    expect(schemaOf('not_null_text')).not.toHaveProperty('nullable');
    expect(schemaOf('nullable_text')).toMatchObject({ required: false, nullable: true });
    expect(schemaOf('conditional_text')).toMatchObject({ required: false, nullable: true });
    expect(schemaOf('choice')).toMatchObject({ enum: ['a', 'b'], nullable: true });
    expect(schemaOf('uuid')).toMatchObject({ format: 'uuid', nullable: true });
    expect(schemaOf('uuids')).toMatchObject({ format: 'uuid', isArray: true });
    expect(schemaOf('url')).toMatchObject({ maxLength: 30, required: false });
    expect(schemaOf('headers')).toMatchObject({
      type: 'object',
      additionalProperties: { type: 'string', nullable: true },
    });
    expect(schemaOf('context')).toMatchObject({ type: 'object', additionalProperties: true });
    expect(schemaOf('phone')).toMatchObject({ maxLength: 40 });
  });
});
