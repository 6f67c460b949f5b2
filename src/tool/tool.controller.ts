import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { EXAMPLE_TOOL_ID } from '../common/validation/example-ids';
import { ETagged } from '../common/etag/etag.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AttachToolsDto } from './dto/attach-tools.dto';
import { CreateToolDto } from './dto/create-tool.dto';
import {
  AssistantToolsDto,
  CreateToolResponseDto,
  DeleteToolResponseDto,
  ToolDetailsDto,
  ToolListDto,
} from './dto/tool-response.dto';
import { UpdateToolDto } from './dto/update-tool.dto';
import { ToolService } from './tool.service';

const CREATE_EXAMPLES = {
  webhook: {
    summary: 'Webhook tool',
    value: {
      tool_name: 'get_order_status',
      tool_description: 'Looks up the delivery status of an order by its number.',
      tool_parameters: [
        { name: 'order_id', type: 'string', description: 'The order number the caller reads out' },
        { name: 'channel', type: 'string', required: false, enum: ['web', 'phone'] },
      ],
      tool_execution_type: 'webhook',
      tool_execution_config: {
        url: 'https://api.example.com/orders/status',
        timeout: 10,
        headers: { Authorization: 'Bearer sk_live_abc123' },
      },
    },
  },
  static_return: {
    summary: 'Static return tool',
    value: {
      tool_name: 'opening_hours',
      tool_description: 'Returns the opening hours of the shop.',
      tool_execution_type: 'static_return',
      tool_execution_config: {
        value: { weekdays: '9:00-18:00', saturday: '10:00-14:00', sunday: 'closed' },
      },
    },
  },
};

const UPDATE_TOOL_EXAMPLES = {
  description: {
    summary: 'Change the description only',
    value: { tool_description: 'Looks up the delivery status and date of an order by its number.' },
  },
};

/** `tool_ids` must name tools of yours: replace the example's with a `tool_id` you created. */
const ATTACH_EXAMPLES = {
  one_tool: { summary: 'One tool', value: { tool_ids: [EXAMPLE_TOOL_ID] } },
};

@ApiTags('tool')
@ApiBearerAuth()
@Controller('tool')
export class ToolController {
  constructor(private readonly tools: ToolService) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute(CreateToolResponseDto, 'Tool created', {
    operationId: 'createTool',
    summary: 'Create a tool (webhook or static_return)',
    response: 'Tool created',
  })
  @ApiBody({ type: CreateToolDto, examples: CREATE_EXAMPLES })
  create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateToolDto,
  ): Promise<CreateToolResponseDto> {
    return this.tools.create(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(ToolListDto, 'Tools retrieved', {
    operationId: 'listTools',
    summary: "List the caller's tools, newest first",
  })
  list(@CurrentUser() user: AuthUser, @Query() query: PaginationQueryDto): Promise<ToolListDto> {
    return this.tools.list(user.user_id, query);
  }

  @Get('details/:tool_id')
  @ETagged('details')
  @ApiRoute(ToolDetailsDto, 'Tool retrieved', {
    operationId: 'getTool',
    summary: 'A tool with defaults filled in; sensitive header values as ****',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('tool_id') toolId: string,
  ): Promise<ToolDetailsDto> {
    return this.tools.details(user.user_id, toolId);
  }

  @Patch('update/:tool_id')
  @ETagged('update')
  @ApiRoute(ToolDetailsDto, 'Tool updated', {
    operationId: 'updateTool',
    summary: 'Update a tool',
    description:
      'Sent fields replace the stored ones (`tool_parameters` as a whole). `tool_execution_config` is merged into the ' +
      'stored config while the execution type stays: headers key by key (`null` deletes, `****` keeps the stored value), ' +
      'a key sent as `null` returns to its default. Changing `tool_execution_type` needs the full new config. The result ' +
      'is validated with the create rules; a rename that gives an assistant two tools of the same name is a 409.',
    response: 'Tool updated',
    errors: [409],
  })
  @ApiBody({ type: UpdateToolDto, examples: UPDATE_TOOL_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('tool_id') toolId: string,
    @Body() dto: UpdateToolDto,
  ): Promise<ToolDetailsDto> {
    return this.tools.update(user.user_id, toolId, dto);
  }

  @Delete('delete/:tool_id')
  @ETagged('delete')
  @ApiRoute(DeleteToolResponseDto, 'Tool deleted', {
    operationId: 'deleteTool',
    summary: 'Delete a tool and detach it from every assistant',
    response: 'Tool deleted',
  })
  remove(
    @CurrentUser() user: AuthUser,
    @UuidParam('tool_id') toolId: string,
  ): Promise<DeleteToolResponseDto> {
    return this.tools.remove(user.user_id, toolId);
  }

  @Post('attach/:assistant_id')
  @HttpCode(200)
  @ApiRoute(AssistantToolsDto, 'Tools attached', {
    operationId: 'attachTools',
    summary: 'Attach tools to an assistant',
    description:
      'Attaching an attached tool again changes nothing. 404 (naming the ids in `data.tool_ids`) when a tool is not ' +
      "the caller's; 409 when the assistant would have two tools with the same `tool_name`." +
      " The example's `tool_ids` holds a placeholder that no install has (answered 404): create the tool first with " +
      '`POST /tool/create` (and the assistant with `POST /assistant/create`) and put the ids they answer here ' +
      '(Swagger UI does it for you once its Execute of those creates has answered).',
    response: 'Every tool now attached to the assistant',
    errors: [409],
  })
  @ApiBody({ type: AttachToolsDto, examples: ATTACH_EXAMPLES })
  attach(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: AttachToolsDto,
  ): Promise<AssistantToolsDto> {
    return this.tools.attach(user.user_id, assistantId, dto.tool_ids);
  }

  @Post('detach/:assistant_id')
  @HttpCode(200)
  @ApiRoute(AssistantToolsDto, 'Tools detached', {
    operationId: 'detachTools',
    summary: 'Detach tools from an assistant; a tool that is not attached is ignored',
    description:
      'The assistant and the tools must be yours (404 naming the tool ids otherwise).' +
      " The example's `tool_ids` holds a placeholder that no install has (answered 404): create the tool first with " +
      '`POST /tool/create` (and the assistant with `POST /assistant/create`) and put the ids they answer here ' +
      '(Swagger UI does it for you once its Execute of those creates has answered).',
    response: 'Every tool still attached to the assistant',
  })
  @ApiBody({ type: AttachToolsDto, examples: ATTACH_EXAMPLES })
  detach(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: AttachToolsDto,
  ): Promise<AssistantToolsDto> {
    return this.tools.detach(user.user_id, assistantId, dto.tool_ids);
  }
}
