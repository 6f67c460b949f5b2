import { Body, Controller, Get, Headers, HttpCode, Post, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ApiEnvelopeErrors, ApiRoute } from '../common/envelope/api-envelope.decorator';
import { envelope } from '../common/envelope/envelope';
import { ConfigExportService } from './config-export.service';
import { ConfigPlanService } from './config-plan.service';
import { ConfigApplyService } from './config-apply.service';
import {
  ApplyConfigDto,
  ConfigAppliedDto,
  ConfigPlanDto,
  PlanConfigDto,
} from './dto/plan-config.dto';
import { toYaml, wantsYaml } from './bundle-yaml';
import { ConfigBundleDto, ConfigExportQueryDto } from './dto/config-bundle.dto';

const EXPORTED = 'Configuration exported';

/**
 * The request example Swagger UI and generated clients send as it is: accepted on a fresh install
 * (no `base_revision`, which only an export of the same database can give).
 */
const PLAN_EXAMPLES = {
  create_a_tool: {
    summary: 'Plan a bundle that adds one static tool',
    value: {
      bundle: {
        tools: {
          opening_hours: {
            tool_description: 'Tells the opening hours.',
            tool_execution_type: 'static_return',
            tool_execution_config: { value: '9-17' },
          },
        },
      },
      prune: false,
    },
  },
};

/**
 * A stale revision is all Execute in Swagger UI can send (a real one comes from this database's
 * export): it shows the 409 and writes nothing.
 */
const APPLY_EXAMPLES = {
  create_a_tool: {
    summary: 'Apply a bundle that adds one static tool (base_revision from export or plan)',
    value: { ...PLAN_EXAMPLES.create_a_tool.value, base_revision: 'q2Xb0m3VxTt1n8bq4kR2Zg' },
  },
};

@ApiTags('config')
@ApiBearerAuth()
@Controller('config')
export class ConfigBundleController {
  constructor(
    private readonly exporter: ConfigExportService,
    private readonly planner: ConfigPlanService,
    private readonly applier: ConfigApplyService,
  ) {}

  /**
   * Answers itself (`@Res`): the YAML form is the bundle alone, a file to keep and apply, not an
   * envelope; the JSON form is the usual envelope.
   */
  @Get('export')
  @ApiOperation({
    operationId: 'exportConfig',
    summary: "The caller's configuration as one bundle (JSON, or YAML with ?format=yaml)",
    description:
      'Every assistant, tool, inbound context strategy and inbound mapping of the caller, keyed by name ' +
      '(a mapping by its phone number), references between them by name, without ids, timestamps or ' +
      'published versions; secrets by name only, secret values in fields masked as reads mask them. ' +
      '`revision` changes with every configuration change. YAML (`?format=yaml` or `Accept: ' +
      'application/yaml`) answers the bundle itself, without the envelope. 409 when two resources of ' +
      'one type share a name (or two mappings one number): rename one first.',
  })
  @ApiExtraModels(ConfigBundleDto)
  @ApiResponse({
    status: 200,
    description: 'The bundle',
    content: {
      'application/json': {
        schema: {
          type: 'object',
          required: ['success', 'message', 'data'],
          properties: {
            success: { type: 'boolean', example: true },
            message: { type: 'string' },
            data: { $ref: getSchemaPath(ConfigBundleDto) },
          },
        },
      },
      'application/yaml': { schema: { $ref: getSchemaPath(ConfigBundleDto) } },
    },
  })
  @ApiEnvelopeErrors(409)
  async export(
    @CurrentUser() user: AuthUser,
    @Query() query: ConfigExportQueryDto,
    @Headers('accept') accept: string | undefined,
    @Res() res: Response,
  ): Promise<void> {
    const bundle = await this.exporter.export(user.user_id);
    if (wantsYaml(query.format, accept)) {
      res.status(200).type('application/yaml').send(toYaml(bundle));
      return;
    }
    res.status(200).json(envelope(true, EXPORTED, bundle));
  }

  @Post('plan')
  @HttpCode(200)
  @ApiRoute(ConfigPlanDto, 'Configuration planned', {
    operationId: 'planConfig',
    summary: 'What applying a bundle would change, without changing anything',
    description:
      '`changes` lists each create, update (with the fields it sets) and, with `prune: true`, delete, in ' +
      'the order they would apply. Each resource is checked as its REST route checks it (the create body ' +
      'for a new one, the update body for one that exists): a failure is 400 naming ' +
      '`bundle.<type>[<name>].<field>`; so is a reference to a tool, strategy, assistant or secret that ' +
      'neither the bundle nor you have. 409 when `base_revision` is not the current revision, or when two ' +
      'of your resources of one type share a name.',
    response: 'The changes',
    errors: [409],
  })
  @ApiBody({ type: PlanConfigDto, examples: PLAN_EXAMPLES })
  plan(@CurrentUser() user: AuthUser, @Body() dto: PlanConfigDto): Promise<ConfigPlanDto> {
    return this.planner.plan(user.user_id, dto);
  }

  @Post('apply')
  @HttpCode(200)
  @ApiRoute(ConfigAppliedDto, 'Configuration applied', {
    operationId: 'applyConfig',
    summary: 'Applies a bundle: every change of its plan in one transaction, or none',
    description:
      "Makes the changes `POST /config/plan` lists for the same body, each through its REST route's " +
      'own checks and audited as that route audits it, all in one transaction: a change that fails ' +
      "leaves nothing written (400 naming `bundle.<type>[<name>].<field>`, or the route's 404/409 with " +
      'the resource named in the message). 409 when `base_revision` is not the current revision. ' +
      'Answers the new revision and how many changes were made (0 for a bundle that matches).',
    response: 'The changes were made',
    errors: [404, 409],
  })
  @ApiBody({ type: ApplyConfigDto, examples: APPLY_EXAMPLES })
  apply(@CurrentUser() user: AuthUser, @Body() dto: ApplyConfigDto): Promise<ConfigAppliedDto> {
    return this.applier.apply(user.user_id, dto);
  }
}
