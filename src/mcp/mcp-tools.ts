import { Injectable } from '@nestjs/common';
import type { ClassConstructor } from 'class-transformer';
import type { OpenAPIObject } from '@nestjs/swagger';
import { ActivityLogService } from '../activity-log/activity-log.service';
import { LogsQueryDto } from '../activity-log/dto/logs-query.dto';
import { AssistantService } from '../assistant/assistant.service';
import { AssistantVersionService } from '../assistant/assistant-version.service';
import type { ApiKeyScope } from '../common/auth/auth-user';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { ConfigApplyService } from '../config-bundle/config-apply.service';
import { ConfigExportService } from '../config-bundle/config-export.service';
import { ConfigPlanService } from '../config-bundle/config-plan.service';
import { ApplyConfigDto, PlanConfigDto } from '../config-bundle/dto/plan-config.dto';
import { InboundMappingService } from '../inbound-context/inbound-mapping.service';
import { StrategyDryRunService } from '../lookup/strategy-dry-run.service';
import { inputSchemaOf, type McpInputSchema, type McpRoute } from './mcp-input-schema';
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
  /**
   * The route's input DTO (with the path's id beside it); left out for a tool that takes no input.
   * `route`: where the OpenAPI document describes that input, which the tool advertises.
   */
  input?: ClassConstructor<T>;
  route?: McpRoute;
  run(userId: string, input: T): Promise<unknown>;
}

const NO_INPUT: McpInputSchema = { type: 'object', properties: {}, additionalProperties: false };

const define = <T extends object>(tool: McpTool<T>) => tool as unknown as McpTool;

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
      route: { method: 'post', path: '/inbound_context_strategy/test/{strategy_id}' },
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
      run: (userId) => exporter.export(userId),
    }),
    define({
      name: 'plan_config',
      description:
        'POST /config/plan: what applying a bundle would change (creates, updates with field names, deletes with prune), changing nothing. Errors name bundle.<type>[<name>].<field>.',
      scope: null,
      readOnly: true,
      input: PlanConfigDto,
      route: { method: 'post', path: '/config/plan' },
      run: (userId, dto: PlanConfigDto) => planner.plan(userId, dto),
    }),
    define({
      name: 'apply_config',
      description:
        "POST /config/apply: makes the plan's changes in one transaction, or none; base_revision must be the current revision.",
      scope: 'config',
      readOnly: false,
      input: ApplyConfigDto,
      route: { method: 'post', path: '/config/apply' },
      run: (userId, dto: ApplyConfigDto) => applier.apply(userId, dto),
    }),
  ];
}

/** The reads agents look around with: the list and details routes' services. */
function readTools(
  assistants: AssistantService,
  versions: AssistantVersionService,
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
      route: { method: 'get', path: '/assistant/list' },
      run: (userId, query: PaginationQueryDto) => assistants.list(userId, query),
    }),
    define({
      name: 'get_assistant',
      description: 'GET /assistant/details/:assistant_id: one assistant or version, masked.',
      scope: null,
      readOnly: true,
      input: AssistantIdInput,
      route: { method: 'get', path: '/assistant/details/{assistant_id}' },
      run: (userId, { assistant_id, version }: AssistantIdInput) =>
        version === undefined
          ? assistants.details(userId, assistant_id)
          : versions.details(userId, assistant_id, version),
    }),
    define({
      name: 'render_assistant',
      description:
        'POST /assistant/render/:assistant_id: the prompt and first message as a call with this context would get them.',
      scope: null,
      readOnly: true,
      input: RenderAssistantInput,
      route: { method: 'post', path: '/assistant/render/{assistant_id}' },
      run: (userId, { assistant_id, ...dto }: RenderAssistantInput) =>
        assistants.render(userId, assistant_id, dto),
    }),
    define({
      name: 'list_inbound',
      description: 'GET /inbound/list: your inbound number mappings, a page at a time.',
      scope: null,
      readOnly: true,
      input: PaginationQueryDto,
      route: { method: 'get', path: '/inbound/list' },
      run: (userId, query: PaginationQueryDto) => mappings.list(userId, query),
    }),
    define({
      name: 'search_logs',
      description:
        'GET /logs: your activity-log entries, newest first, filtered as the route filters them.',
      scope: null,
      readOnly: true,
      input: LogsQueryDto,
      route: { method: 'get', path: '/logs' },
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
  private schemas?: Map<string, McpInputSchema>;

  constructor(
    exporter: ConfigExportService,
    planner: ConfigPlanService,
    applier: ConfigApplyService,
    assistants: AssistantService,
    versions: AssistantVersionService,
    mappings: InboundMappingService,
    logs: ActivityLogService,
    dryRuns: StrategyDryRunService,
  ) {
    this.all = [
      ...bundleTools(exporter, planner, applier),
      ...readTools(assistants, versions, mappings, logs),
      ...strategyTools(dryRuns),
    ];
  }

  /**
   * Reads each tool's input schema from the app's OpenAPI document (`configureApp` gives it once
   * built): a tool whose route the document lacks stops the boot.
   */
  useDocument(document: OpenAPIObject): void {
    this.schemas = new Map(
      this.all.map((tool) => {
        if (tool.input && !tool.route) throw new Error(`MCP: ${tool.name} has no route`);
        return [tool.name, tool.route ? inputSchemaOf(document, tool.route) : NO_INPUT];
      }),
    );
  }

  /** The input schema a tool advertises. */
  inputSchema(tool: McpTool): McpInputSchema {
    const schema = this.schemas?.get(tool.name);
    if (!schema) throw new Error('MCP: the tools were not given the OpenAPI document');
    return schema;
  }

  /** The tools a key with `scopes` may see and call. */
  allowed(scopes: readonly ApiKeyScope[]): McpTool[] {
    return this.all.filter((tool) => tool.scope === null || scopes.includes(tool.scope));
  }
}
