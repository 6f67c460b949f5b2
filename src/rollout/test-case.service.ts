import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import { AssistantService } from '../assistant/assistant.service';
import { AppException } from '../common/errors/app.exception';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { toIso } from '../common/time/iso';
import type { CreateTestCaseDto, UpdateTestCaseDto } from './dto/test-case.dto';
import type { TestCaseDeletedDto, TestCaseDto } from './dto/test-case-response.dto';
import type { TestCaseCall, TestCaseContextMock, TestCaseExpect } from './rollout.types';
import { TestCaseEntity } from './test-case.entity';

/** The caller's test cases, per assistant (`/assistant/test-case/...`). */
@Injectable()
export class TestCaseService {
  constructor(
    @InjectRepository(TestCaseEntity) private readonly cases: Repository<TestCaseEntity>,
    private readonly assistants: AssistantService,
  ) {}

  async create(userId: string, assistantId: string, dto: CreateTestCaseDto): Promise<TestCaseDto> {
    await this.assistants.assertOwned(userId, assistantId);
    const row = {
      test_case_id: randomUUID(),
      user_id: userId,
      assistant_id: assistantId,
      name: dto.name,
      call: plain<TestCaseCall>(dto.call),
      context_mock: dto.context_mock ? plain<TestCaseContextMock>(dto.context_mock) : null,
      tool_mocks: dto.tool_mocks ?? null,
      expect: plain<TestCaseExpect>(dto.expect),
    };
    await this.cases.insert(row as QueryDeepPartialEntity<TestCaseEntity>);
    return toTestCase(await this.findOwned(userId, row.test_case_id));
  }

  async list(
    userId: string,
    assistantId: string,
    query: PaginationQueryDto,
  ): Promise<Paginated<TestCaseDto>> {
    await this.assistants.assertOwned(userId, assistantId);
    return findPage(
      this.cases,
      { user_id: userId, assistant_id: assistantId },
      { created_at: 'DESC', test_case_id: 'DESC' },
      query,
      (rows) => rows.map(toTestCase),
    );
  }

  async details(userId: string, testCaseId: string): Promise<TestCaseDto> {
    return toTestCase(await this.findOwned(userId, testCaseId));
  }

  /** A field sent replaces the stored one; `null` clears `context_mock` and `tool_mocks`. */
  async update(userId: string, testCaseId: string, dto: UpdateTestCaseDto): Promise<TestCaseDto> {
    await this.findOwned(userId, testCaseId);
    const changes: Partial<TestCaseEntity> = {};
    if (dto.name !== undefined && dto.name !== null) changes.name = dto.name;
    if (dto.call) changes.call = plain(dto.call);
    if (dto.expect) changes.expect = plain(dto.expect);
    if (dto.context_mock !== undefined)
      changes.context_mock = dto.context_mock ? plain(dto.context_mock) : null;
    if (dto.tool_mocks !== undefined) changes.tool_mocks = dto.tool_mocks ?? null;
    if (Object.keys(changes).length)
      await this.cases.update(
        { test_case_id: testCaseId, user_id: userId },
        changes as QueryDeepPartialEntity<TestCaseEntity>,
      );
    return toTestCase(await this.findOwned(userId, testCaseId));
  }

  async remove(userId: string, testCaseId: string): Promise<TestCaseDeletedDto> {
    await this.findOwned(userId, testCaseId);
    await this.cases.delete({ test_case_id: testCaseId, user_id: userId });
    return { test_case_id: testCaseId };
  }

  /** Every test case of the assistant, oldest first (the order a check runs them in). */
  allOf(userId: string, assistantId: string): Promise<TestCaseEntity[]> {
    return this.cases.find({
      where: { user_id: userId, assistant_id: assistantId },
      order: { created_at: 'ASC', test_case_id: 'ASC' },
    });
  }

  private async findOwned(userId: string, testCaseId: string): Promise<TestCaseEntity> {
    const found = await this.cases.findOneBy({ test_case_id: testCaseId, user_id: userId });
    if (!found) throw AppException.notFound('Test case');
    return found;
  }
}

/** A validated DTO as stored: its own fields only, absent ones left out. */
function plain<T>(dto: object): T {
  return JSON.parse(JSON.stringify(dto)) as T;
}

function toTestCase(row: TestCaseEntity): TestCaseDto {
  return {
    test_case_id: row.test_case_id,
    assistant_id: row.assistant_id,
    name: row.name,
    call: row.call,
    context_mock: row.context_mock ?? null,
    tool_mocks: row.tool_mocks ?? null,
    expect: row.expect,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}
