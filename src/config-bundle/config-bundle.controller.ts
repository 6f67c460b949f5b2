import { Controller, Get, Headers, Query, Res } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ApiEnvelopeErrors } from '../common/envelope/api-envelope.decorator';
import { envelope } from '../common/envelope/envelope';
import { ConfigExportService } from './config-export.service';
import { toYaml, wantsYaml } from './bundle-yaml';
import { ConfigBundleDto, ConfigExportQueryDto } from './dto/config-bundle.dto';

const EXPORTED = 'Configuration exported';

@ApiTags('config')
@ApiBearerAuth()
@Controller('config')
export class ConfigBundleController {
  constructor(private readonly exporter: ConfigExportService) {}

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
}
