import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { CreateTestCaseDto, UpdateTestCaseDto } from './dto/test-case.dto';
import { TestCaseDeletedDto, TestCaseDto, TestCaseListDto } from './dto/test-case-response.dto';
import { TestCaseService } from './test-case.service';

const CREATE_EXAMPLES = {
  known_caller: {
    summary: 'A known caller is greeted by name',
    value: {
      name: 'Known caller is greeted by name',
      call: { caller_number: '+919900011122', inbound_number: '918012345678' },
      context_mock: { status: 200, body: { context: { customer_name: 'Asha' } }, latency_ms: 120 },
      expect: { status: 'success', prompt_contains: ['Asha'], missing: [] },
    },
  },
};

const UPDATE_EXAMPLES = {
  rename: { summary: 'Rename the case', value: { name: 'Known caller, greeted by first name' } },
};

@ApiTags('test-case')
@ApiBearerAuth()
@Controller('assistant/test-case')
export class TestCaseController {
  constructor(private readonly cases: TestCaseService) {}

  @Post('create/:assistant_id')
  @HttpCode(200)
  @ApiRoute(TestCaseDto, 'Test case created', {
    operationId: 'createTestCase',
    summary: 'Add a test case to an assistant',
    description:
      'The call values, the strategy answer it plays (`context_mock`: status, whole JSON body, latency), ' +
      'the arguments a model would pass each tool (`tool_mocks`) and what is expected of the rendered prompt, ' +
      'the missing values, the outcome and the tool requests. `POST /assistant/check/:assistant_id` runs them.',
    response: 'Test case created',
  })
  @ApiBody({ type: CreateTestCaseDto, examples: CREATE_EXAMPLES })
  create(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: CreateTestCaseDto,
  ): Promise<TestCaseDto> {
    return this.cases.create(user.user_id, assistantId, dto);
  }

  @Get('list/:assistant_id')
  @ApiRoute(TestCaseListDto, 'Test cases retrieved', {
    operationId: 'listTestCases',
    summary: "An assistant's test cases, newest first",
  })
  list(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<TestCaseListDto> {
    return this.cases.list(user.user_id, assistantId, query);
  }

  @Get('details/:test_case_id')
  @ApiRoute(TestCaseDto, 'Test case retrieved', {
    operationId: 'getTestCase',
    summary: 'A test case',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('test_case_id') testCaseId: string,
  ): Promise<TestCaseDto> {
    return this.cases.details(user.user_id, testCaseId);
  }

  @Patch('update/:test_case_id')
  @ApiRoute(TestCaseDto, 'Test case updated', {
    operationId: 'updateTestCase',
    summary: 'Update a test case',
    description:
      'A field sent replaces the stored one as a whole; `null` clears `context_mock` or `tool_mocks`.',
    response: 'Test case updated',
  })
  @ApiBody({ type: UpdateTestCaseDto, examples: UPDATE_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('test_case_id') testCaseId: string,
    @Body() dto: UpdateTestCaseDto,
  ): Promise<TestCaseDto> {
    return this.cases.update(user.user_id, testCaseId, dto);
  }

  @Delete('delete/:test_case_id')
  @ApiRoute(TestCaseDeletedDto, 'Test case deleted', {
    operationId: 'deleteTestCase',
    summary: 'Delete a test case',
    response: 'Test case deleted',
  })
  remove(
    @CurrentUser() user: AuthUser,
    @UuidParam('test_case_id') testCaseId: string,
  ): Promise<TestCaseDeletedDto> {
    return this.cases.remove(user.user_id, testCaseId);
  }
}
