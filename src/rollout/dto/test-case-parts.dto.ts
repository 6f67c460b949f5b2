import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsInt,
  Max,
  Min,
  ValidateBy,
  ValidateNested,
  type ValidationArguments,
} from 'class-validator';
import { CallNumbersDto } from '../../common/validation/call-numbers.dto';
import { AsSent, Optional, ValidateEnum, ValidateText } from '../../common/validation/validation';
import { ROOM_NAME_MAX_LENGTH } from '../../contracts/limits';

/** A mock body, a tool mock's arguments: at most this many bytes of JSON. */
export const MAX_MOCK_BYTES = 64 * 1024;
export const MAX_MOCK_LATENCY_MS = 30_000;
export const MAX_EXPECTATIONS = 50;
export const MAX_TOOL_MOCKS = 20;
const MAX_VARIABLES = 20;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const jsonBytes = (value: unknown): number =>
  Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

/** The call a test case plays. */
export class TestCaseCallDto extends CallNumbersDto {
  /** The room the lookup serves; a name of the check's own when absent. */
  @ValidateText(1, ROOM_NAME_MAX_LENGTH, { optional: true, nullable: true })
  room_name?: string;

  /** Extra `{{call.<name>}}` values over the ones the call derives, e.g. `{"call_type": "inbound"}`. */
  @ApiProperty({
    type: 'object',
    additionalProperties: { type: 'string', maxLength: 1000 },
    example: { call_type: 'inbound' },
  })
  @Optional({ nullable: true })
  @ValidateBy({
    name: 'isVariables',
    validator: {
      validate: (value: unknown) =>
        isPlainObject(value) &&
        Object.keys(value).length <= MAX_VARIABLES &&
        Object.values(value).every((v) => typeof v === 'string' && v.length <= 1000),
      defaultMessage: () =>
        `$property must be an object of at most ${MAX_VARIABLES} string values (each at most 1000 characters)`,
    },
  })
  @AsSent()
  variables?: Record<string, string>;
}

/** What the strategy's endpoint answers in this case. */
export class ContextMockDto {
  /** The HTTP status it answers. @example 200 */
  @ApiProperty({ type: 'integer', minimum: 100, maximum: 599, example: 200 })
  @IsInt()
  @Min(100)
  @Max(599)
  status: number;

  /** The endpoint's whole JSON answer (e.g. `{"context": {...}}`), at most 64 KB. */
  @ApiProperty({ example: { context: { customer_name: 'Asha' } } })
  @ValidateBy({
    name: 'isMockBody',
    validator: {
      validate: (value: unknown) => value !== undefined && jsonBytes(value) <= MAX_MOCK_BYTES,
      defaultMessage: (args?: ValidationArguments) =>
        args?.value === undefined
          ? '$property is required'
          : `$property must be JSON of at most ${MAX_MOCK_BYTES} bytes`,
    },
  })
  @AsSent()
  body: unknown;

  /** How long the endpoint takes to answer; above the strategy's timeout it is a timeout. */
  @ApiProperty({
    type: 'integer',
    minimum: 0,
    maximum: MAX_MOCK_LATENCY_MS,
    required: false,
    example: 120,
  })
  @Optional({ nullable: true })
  @IsInt()
  @Min(0)
  @Max(MAX_MOCK_LATENCY_MS)
  latency_ms?: number;
}

/** A tool request the case expects the check to build. */
export class ExpectedToolRequestDto {
  @ValidateText(1, 64)
  tool_name: string;

  /** Text the resolved URL contains. */
  @ValidateText(1, 2000, { optional: true, nullable: true })
  url_contains?: string;

  /** Text the JSON body contains. */
  @ValidateText(1, 2000, { optional: true, nullable: true })
  body_contains?: string;
}

const Texts = (): PropertyDecorator =>
  applyDecorators(
    ApiProperty({ type: [String], maxItems: MAX_EXPECTATIONS, required: false }),
    Optional({ nullable: true }),
    IsArray(),
    ArrayMaxSize(MAX_EXPECTATIONS),
    ValidateBy({
      name: 'isTexts',
      validator: {
        validate: (value: unknown) =>
          Array.isArray(value) &&
          value.every((v) => typeof v === 'string' && v.length >= 1 && v.length <= 1000),
        defaultMessage: () => '$property must hold strings of 1-1000 characters',
      },
    }),
  );

/** What the case expects; every expectation given must hold. */
export class TestCaseExpectDto {
  /** The lookup's outcome: `success` (the strategy's context used) or `error`. */
  @ValidateEnum(['success', 'error'], { optional: true, nullable: true })
  status?: 'success' | 'error';

  /** Texts the rendered prompt contains. */
  @Texts()
  prompt_contains?: string[];

  /** Texts the rendered prompt does not contain. */
  @Texts()
  prompt_not_contains?: string[];

  /** Placeholders allowed to render empty (`context.plan`, `call.caller_number`); any other fails the case. */
  @Texts()
  missing?: string[];

  /** Tool requests the check must build from the tool mocks. */
  @ApiProperty({ type: [ExpectedToolRequestDto], required: false, maxItems: MAX_TOOL_MOCKS })
  @Optional({ nullable: true })
  @IsArray()
  @ArrayMaxSize(MAX_TOOL_MOCKS)
  @ValidateNested({ each: true })
  @Type(() => ExpectedToolRequestDto)
  tool_requests?: ExpectedToolRequestDto[];
}

/** `tool_mocks`: `{<tool_name>: {arguments: {...}}}`, the arguments a model would pass. */
export function ValidateToolMocks(): PropertyDecorator {
  return applyDecorators(
    ApiProperty({
      type: 'object',
      additionalProperties: {
        type: 'object',
        required: ['arguments'],
        properties: { arguments: { type: 'object', additionalProperties: true } },
      },
      example: { book_slot: { arguments: { slot: '2026-12-01T10:00' } } },
    }),
    Optional({ nullable: true }),
    ValidateBy({
      name: 'isToolMocks',
      validator: {
        validate: (value: unknown) => toolMocksProblem(value) === null,
        defaultMessage: (args?: ValidationArguments) =>
          `${args?.property ?? 'tool_mocks'}${toolMocksProblem(args?.value) ?? ''}`,
      },
    }),
    AsSent(),
  );
}

/** Why `value` is not a valid `tool_mocks` (the rest of the message after the field), or null. */
function toolMocksProblem(value: unknown): string | null {
  if (!isPlainObject(value)) return ' must be an object of {<tool_name>: {arguments: {...}}}';
  const entries = Object.entries(value);
  if (entries.length > MAX_TOOL_MOCKS) return ` must name at most ${MAX_TOOL_MOCKS} tools`;
  for (const [name, mock] of entries) {
    if (name.length < 1 || name.length > 64) return ' tool names must be 1-64 characters long';
    if (!isPlainObject(mock) || !isPlainObject(mock.arguments))
      return `.${name}.arguments must be an object`;
    if (Object.keys(mock).some((k) => k !== 'arguments'))
      return `.${name} must hold only "arguments"`;
    if (jsonBytes(mock.arguments) > MAX_MOCK_BYTES)
      return `.${name}.arguments must be JSON of at most ${MAX_MOCK_BYTES} bytes`;
  }
  return null;
}
