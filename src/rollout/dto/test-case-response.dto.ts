import { ApiProperty } from '@nestjs/swagger';
import type { TestCaseToolMocks } from '../rollout.types';
import { ContextMockDto, TestCaseCallDto, TestCaseExpectDto } from './test-case-parts.dto';

export class TestCaseDto {
  test_case_id: string;
  assistant_id: string;
  name: string;
  call: TestCaseCallDto;

  @ApiProperty({ type: ContextMockDto, nullable: true })
  context_mock: ContextMockDto | null;

  @ApiProperty({
    type: 'object',
    nullable: true,
    additionalProperties: {
      type: 'object',
      properties: { arguments: { type: 'object', additionalProperties: true } },
    },
  })
  tool_mocks: TestCaseToolMocks | null;

  expect: TestCaseExpectDto;
  /** ISO 8601, UTC. */
  created_at: string;
  /** ISO 8601, UTC. */
  updated_at: string;
}

export class TestCaseListDto {
  items: TestCaseDto[];
  total: number;
  page: number;
  limit: number;
}

export class TestCaseDeletedDto {
  test_case_id: string;
}
