import { Injectable } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import { getMetadataStorage } from 'class-validator';
import { z, type ZodRawShape } from 'zod';
import { ActivityLogService } from '../activity-log/activity-log.service';
import { LogsQueryDto } from '../activity-log/dto/logs-query.dto';
import { AssistantService } from '../assistant/assistant.service';
import type { ApiKeyScope } from '../common/auth/auth-user';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { ConfigApplyService } from '../config-bundle/config-apply.service';
import { ConfigExportService } from '../config-bundle/config-export.service';
import { ConfigPlanService } from '../config-bundle/config-plan.service';
import { ApplyConfigDto, PlanConfigDto } from '../config-bundle/dto/plan-config.dto';
import { InboundMappingService } from '../inbound-context/inbound-mapping.service';
import { StrategyDryRunService } from '../inbound-context/strategy-dry-run.service';
import { AssistantIdInput, RenderAssistantInput, TestStrategyInput } from './mcp-inputs';

/** One MCP tool: the route it stands for, its input DTO (the route's rules) and the service call. */
export interface McpTool<T extends object = object> {
  name: string;
  description: string;
  /** The scope a key needs to see and call it (`null`: any key). */
  scope: ApiKeyScope | null;
  /** `true` for a tool that changes nothing. */
  readOnly: boolean;
  /** `true` for a tool that reaches outside the service (a customer's endpoint). */
  openWorld?: boolean;
  /** Left out for a tool that takes no input. */
  input?: ClassConstructor<T>;
  /** The input as the client sees it; the DTO checks it again, with its own messages. */
  shape: ZodRawShape;
  run(userId: string, input: T): Promise<unknown>;
}

const define = <T extends object>(tool: McpTool<T>) => tool as unknown as McpTool;

const page = {
  page: z.number().int().min(1).optional().describe('Page, from 1 (default 1)'),
  limit: z.number().int().min(1).max(100).optional().describe('Items a page, 1-100 (default 50)'),
};
const bundle = {
  bundle: z
    .record(z.string(), z.unknown())
    .describe('The configuration wanted, as export_config writes it (parts keyed by name)'),
  prune: z.boolean().optional().describe('Also delete what the bundle leaves out (default false)'),
};
/** The filters of `GET /logs`: every field LogsQueryDto has a rule for, besides the page (it checks each). */
const LOG_FILTERS = [
  ...new Set(
    getMetadataStorage()
      .getTargetValidationMetadatas(LogsQueryDto, '', true, false)
      .map((rule) => rule.propertyName),
  ),
].filter((field) => !(field in page));
const logsShape = {
  ...page,
  ...Object.fromEntries(
    LOG_FILTERS.map((field) => [field, z.string().optional().describe(`As GET /logs ?${field}`)]),
  ),
};
const assistantId = { assistant_id: z.string().describe('The assistant id (a UUID)') };
const renderShape = {
  ...assistantId,
  context: z.record(z.string(), z.unknown()).optional().describe('The caller context'),
  call: z.record(z.string(), z.unknown()).optional().describe('The call numbers'),
};

const testStrategyShape = {
  strategy_id: z.string().describe('The strategy id (a UUID)'),
  caller_number: z.string().nullable().optional().describe('Sent as is (default +10000000000)'),
  inbound_number: z
    .string()
    .nullable()
    .optional()
    .describe("The dialled number (default a mapping's number that uses the strategy)"),
  assistant_id: z
    .string()
    .nullable()
    .optional()
    .describe("The assistant whose prompt is previewed (default a mapping's)"),
};

/**
 * The strategy dry run: the service of `POST /inbound_context_strategy/test/:id`, which needs a
 * `config` key as that route does. It calls the customer's endpoint (`dry_run: true`) and changes nothing.
 */
function strategyTools(dryRuns: StrategyDryRunService): McpTool[] {
  return [
    define({
      name: 'test_strategy',
      description:
        "POST /inbound_context_strategy/test/:strategy_id: calls the strategy's webhook now with a sample payload (dry_run: true) and answers the outcome, the context keys and the prompt rendered with it; secrets by name only. No log entry.",
      scope: 'config',
      readOnly: true,
      openWorld: true,
      input: TestStrategyInput,
      shape: testStrategyShape,
      run: (userId, { strategy_id, ...dto }: TestStrategyInput) =>
        dryRuns.dryRun(userId, strategy_id, dto),
    }),
  ];
}

/** The config-as-code tools: the bundle routes' services. */
function bundleTools(
  exporter: ConfigExportService,
  planner: ConfigPlanService,
  applier: ConfigApplyService,
): McpTool[] {
  return [
    define({
      name: 'export_config',
      description:
        'GET /config/export: your configuration as one bundle (resources keyed by name, references by name, secrets by name only) and its revision.',
      scope: null,
      readOnly: true,
      shape: {},
      run: (userId) => exporter.export(userId),
    }),
    define({
      name: 'plan_config',
      description:
        'POST /config/plan: what applying a bundle would change (creates, updates with field names, deletes with prune), changing nothing. Errors name bundle.<type>[<name>].<field>.',
      scope: null,
      readOnly: true,
      input: PlanConfigDto,
      shape: {
        ...bundle,
        base_revision: z
          .string()
          .nullable()
          .optional()
          .describe('The revision the bundle was made from (409 when stale)'),
      },
      run: (userId, dto: PlanConfigDto) => planner.plan(userId, dto),
    }),
    define({
      name: 'apply_config',
      description:
        "POST /config/apply: makes the plan's changes in one transaction, or none; base_revision must be the current revision.",
      scope: 'config',
      readOnly: false,
      input: ApplyConfigDto,
      shape: {
        ...bundle,
        base_revision: z
          .string()
          .describe('The current revision (of export_config or plan_config)'),
      },
      run: (userId, dto: ApplyConfigDto) => applier.apply(userId, dto),
    }),
  ];
}

/** The reads agents look around with: the list and details routes' services. */
function readTools(
  assistants: AssistantService,
  mappings: InboundMappingService,
  logs: ActivityLogService,
): McpTool[] {
  return [
    define({
      name: 'list_assistants',
      description: 'GET /assistant/list: your assistants, a page at a time.',
      scope: null,
      readOnly: true,
      input: PaginationQueryDto,
      shape: page,
      run: (userId, query: PaginationQueryDto) => assistants.list(userId, query),
    }),
    define({
      name: 'get_assistant',
      description: 'GET /assistant/details/:assistant_id: one assistant (secrets masked).',
      scope: null,
      readOnly: true,
      input: AssistantIdInput,
      shape: assistantId,
      run: (userId, { assistant_id }: AssistantIdInput) => assistants.details(userId, assistant_id),
    }),
    define({
      name: 'render_assistant',
      description:
        'POST /assistant/render/:assistant_id: the prompt and first message as a call with this context would get them.',
      scope: null,
      readOnly: true,
      input: RenderAssistantInput,
      shape: renderShape,
      run: (userId, { assistant_id, ...dto }: RenderAssistantInput) =>
        assistants.render(userId, assistant_id, dto),
    }),
    define({
      name: 'list_inbound',
      description: 'GET /inbound/list: your inbound number mappings, a page at a time.',
      scope: null,
      readOnly: true,
      input: PaginationQueryDto,
      shape: page,
      run: (userId, query: PaginationQueryDto) => mappings.list(userId, query),
    }),
    define({
      name: 'search_logs',
      description:
        'GET /logs: your activity-log entries, newest first, filtered as the route filters them.',
      scope: null,
      readOnly: true,
      input: LogsQueryDto,
      shape: logsShape,
      run: (userId, query: LogsQueryDto) => logs.list(userId, query),
    }),
  ];
}

/**
 * The tools of `POST /mcp`: each calls the service its REST route calls, with the input checked by
 * that route's DTO. Read tools for every key; `apply_config` and `test_strategy` (whose route
 * needs `config`) only for a key with `config`.
 */
@Injectable()
export class McpTools {
  readonly all: McpTool[];

  constructor(
    exporter: ConfigExportService,
    planner: ConfigPlanService,
    applier: ConfigApplyService,
    assistants: AssistantService,
    mappings: InboundMappingService,
    logs: ActivityLogService,
    dryRuns: StrategyDryRunService,
  ) {
    this.all = [
      ...bundleTools(exporter, planner, applier),
      ...readTools(assistants, mappings, logs),
      ...strategyTools(dryRuns),
    ];
  }

  /** The tools a key with `scopes` may see and call. */
  allowed(scopes: readonly ApiKeyScope[]): McpTool[] {
    return this.all.filter((tool) => tool.scope === null || scopes.includes(tool.scope));
  }
}
