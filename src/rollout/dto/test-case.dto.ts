import { PartialType } from '@nestjs/swagger';
import { ValidateNestedObject, ValidateText } from '../../common/validation/validation';
import type { TestCaseToolMocks } from '../rollout.types';
import {
  ContextMockDto,
  TestCaseCallDto,
  TestCaseExpectDto,
  ValidateToolMocks,
} from './test-case-parts.dto';

/** A test case of an assistant: the call, the strategy's and the tools' mocked answers, the expectations. */
export class CreateTestCaseDto {
  /** @example "Known caller gets greeted by name" */
  @ValidateText(1, 100)
  name: string;

  @ValidateNestedObject(() => TestCaseCallDto)
  call: TestCaseCallDto;

  /** The strategy's answer; null (or absent): the mapping's strategy is not consulted. */
  @ValidateNestedObject(() => ContextMockDto, { optional: true, nullable: true })
  context_mock?: ContextMockDto | null;

  @ValidateToolMocks()
  tool_mocks?: TestCaseToolMocks | null;

  @ValidateNestedObject(() => TestCaseExpectDto)
  expect: TestCaseExpectDto;
}

/** Every field optional; a field sent replaces the stored one as a whole. */
export class UpdateTestCaseDto extends PartialType(CreateTestCaseDto) {}
