import { randomUUID } from 'node:crypto';
import { Injectable, type OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { InjectRepository } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import type { QueryDeepPartialEntity } from 'typeorm/query-builder/QueryPartialEntity';
import type { AssistantEntity } from '../assistant/assistant.entity';
import { AssistantService } from '../assistant/assistant.service';
import { PublishedVersions } from '../assistant/published-versions';
import { AppException } from '../common/errors/app.exception';
import {
  type Paginated,
  type PaginationQueryDto,
  findPage,
} from '../common/pagination/pagination-query.dto';
import { toIso } from '../common/time/iso';
import type { AppConfig } from '../config/app-config';
import { CheckStrategies } from '../inbound-context/check-strategies';
import { ProductionGate } from '../inbound-context/production-gate';
import { SecretReferences } from '../secret/secret-references';
import { readToolSnapshots } from '../tool/tool-snapshot';
import { ToolService } from '../tool/tool.service';
import { applyToolDefaults } from '../tool/utils/apply-tool-defaults.util';
import { TenantEvents } from '../event-subscription/tenant-events';
import { AssistantCheckEntity } from './assistant-check.entity';
import { unmetExpectations } from './check-expect';
import { playLookup, type LookupLimits } from './check-lookup';
import { buildToolRequests, type CheckedTool } from './check-tools';
import type { CheckDto } from './dto/check.dto';
import type { CheckedCase } from './rollout.types';
import type { TestCaseEntity } from './test-case.entity';
import { TestCaseService } from './test-case.service';

/** The version a check plays: its assistant as it renders and its tools as its calls run them. */
interface CheckedVersion {
  assistant: AssistantEntity;
  tools: CheckedTool[];
  label: string;
}

/**
 * `POST /assistant/check/:assistant_id`: every test case of the assistant played against one
 * version with the lookup's and the tool call's own code, nothing sent; the result is kept.
 */
@Injectable()
export class CheckService implements OnModuleInit {
  private readonly limits: LookupLimits;

  constructor(
    @InjectRepository(AssistantCheckEntity)
    private readonly checks: Repository<AssistantCheckEntity>,
    private readonly testCases: TestCaseService,
    private readonly assistants: AssistantService,
    private readonly published: PublishedVersions,
    private readonly tools: ToolService,
    private readonly strategies: CheckStrategies,
    private readonly secretRefs: SecretReferences,
    private readonly gate: ProductionGate,
    private readonly events: TenantEvents,
    config: ConfigService<AppConfig, true>,
  ) {
    this.limits = {
      maxPromptBytes: config.get('limits.maxRenderedPromptBytes', { infer: true }),
      maxContextResponseBytes: config.get('limits.maxContextResponseBytes', { infer: true }),
    };
  }

  /** A production number takes a version only once its newest check passed. */
  onModuleInit(): void {
    this.gate.register((userId, assistantId, version) => this.passed(userId, assistantId, version));
  }

  async run(userId: string, assistantId: string, version: number | null): Promise<CheckDto> {
    const checked = await this.versionOf(userId, assistantId, version);
    const cases: CheckedCase[] = [];
    for (const testCase of await this.testCases.allOf(userId, assistantId))
      cases.push(await this.play(userId, assistantId, checked, testCase));
    const row = {
      check_id: randomUUID(),
      user_id: userId,
      assistant_id: assistantId,
      version,
      passed: cases.length > 0 && cases.every((c) => c.passed),
      cases,
      // Set here, to the millisecond: SQLite's default has whole seconds, and the newest check
      // of a version (the production gate, the list's order) must be the last one run.
      created_at: new Date(),
    };
    await this.checks.insert(row as QueryDeepPartialEntity<AssistantCheckEntity>);
    if (!row.passed)
      await this.events.emit(userId, 'check.failed', row.check_id, {
        check_id: row.check_id,
        assistant_id: assistantId,
        version,
        failed_cases: cases.filter((c) => !c.passed).length,
        cases: cases.length,
      });
    const saved = await this.checks.findOneByOrFail({ check_id: row.check_id });
    return toCheck(saved);
  }

  list(
    userId: string,
    assistantId: string,
    query: PaginationQueryDto,
  ): Promise<Paginated<CheckDto>> {
    return this.assistants
      .assertOwned(userId, assistantId)
      .then(() =>
        findPage(
          this.checks,
          { user_id: userId, assistant_id: assistantId },
          { created_at: 'DESC', check_id: 'DESC' },
          query,
          (rows) => rows.map(toCheck),
        ),
      );
  }

  /** Whether the newest check of this exact version of the assistant passed. */
  async passed(userId: string, assistantId: string, version: number): Promise<boolean> {
    const newest = await this.checks.findOne({
      select: { check_id: true, passed: true },
      where: { user_id: userId, assistant_id: assistantId, version },
      order: { created_at: 'DESC', check_id: 'DESC' },
    });
    return Boolean(newest?.passed);
  }

  private async versionOf(
    userId: string,
    assistantId: string,
    version: number | null,
  ): Promise<CheckedVersion> {
    const working = await this.assistants.findOwned(userId, assistantId);
    if (version === null) {
      const tools = await this.tools.attachedTools(assistantId);
      return { assistant: working, tools, label: 'the working copy' };
    }
    const found = await this.published.find(userId, assistantId, version);
    if (!found) throw AppException.notFound('Assistant version');
    const tools = readToolSnapshots(found.tools).map((snapshot) => ({
      tool_id: snapshot.tool_id,
      ...applyToolDefaults(snapshot),
    }));
    return { assistant: found.assistant, tools, label: `version ${version}` };
  }

  private async play(
    userId: string,
    assistantId: string,
    checked: CheckedVersion,
    testCase: TestCaseEntity,
  ): Promise<CheckedCase> {
    const call = {
      ...testCase.call,
      room_name: testCase.call.room_name ?? `check-${randomUUID()}`,
    };
    const found = await this.strategies.forCall(userId, assistantId, call.inbound_number);
    const lookup = playLookup(checked.assistant, call, testCase.context_mock, found, this.limits);
    const built = await buildToolRequests(
      testCase.tool_mocks,
      checked.tools,
      { room_name: call.room_name, assistant_id: assistantId, versionLabel: checked.label },
      (request) => this.secretRefs.resolveRequest(userId, request),
    );
    const result = { ...lookup, tool_requests: built.requests };
    const failures = [...built.failures, ...unmetExpectations(testCase.expect, result)];
    if (testCase.context_mock && lookup.status === 'skipped')
      failures.unshift(
        'context_mock: no mapping of this assistant (or of call.inbound_number) has a strategy to answer it',
      );
    return {
      test_case_id: testCase.test_case_id,
      name: testCase.name,
      passed: failures.length === 0,
      failures,
      result,
    };
  }
}

function toCheck(row: AssistantCheckEntity): CheckDto {
  return {
    check_id: row.check_id,
    assistant_id: row.assistant_id,
    version: row.version === null ? null : Number(row.version),
    passed: Boolean(row.passed),
    created_at: toIso(row.created_at),
    cases: row.cases,
  };
}
