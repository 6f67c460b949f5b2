import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { ETagged } from '../common/etag/etag.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AssistantVersionService } from './assistant-version.service';
import { AssistantService } from './assistant.service';
import {
  AssistantCreatedDto,
  AssistantDeletedDto,
  AssistantDetailsDto,
  AssistantListDto,
} from './dto/assistant-response.dto';
import { AssistantVersionListDto, AssistantVersionQueryDto } from './dto/assistant-version.dto';
import { CREATE_ASSISTANT_EXAMPLES, CreateAssistantDto } from './dto/create-assistant.dto';
import { SarvamTtsConfigDto, VoiceIdTtsConfigDto } from './dto/tts-config.dto';
import { RenderAssistantDto, RenderedAssistantDto } from './dto/render-assistant.dto';
import { UpdateAssistantDto } from './dto/update-assistant.dto';

const UPDATE_ASSISTANT_EXAMPLES = {
  prompt: {
    summary: 'Change the prompt only',
    value: { assistant_prompt: 'You are a friendly support agent. Keep answers short.' },
  },
};

@ApiTags('assistant')
@ApiBearerAuth()
@ApiExtraModels(VoiceIdTtsConfigDto, SarvamTtsConfigDto)
@Controller('assistant')
export class AssistantController {
  constructor(
    private readonly assistants: AssistantService,
    private readonly versions: AssistantVersionService,
  ) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute(AssistantCreatedDto, 'Assistant created', {
    operationId: 'createAssistant',
    summary: 'Create an assistant',
    description:
      'Pipeline mode requires `assistant_tts_model` and `assistant_tts_config` (shape per provider). ' +
      'Realtime mode requires `assistant_llm_config` (`{}` takes every default) and stores ' +
      '`filler_words` false; TTS fields sent with realtime mode are accepted but unused.',
    response: 'Assistant created',
    errors: [422],
  })
  @ApiBody({ type: CreateAssistantDto, examples: CREATE_ASSISTANT_EXAMPLES })
  create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateAssistantDto,
  ): Promise<AssistantCreatedDto> {
    return this.assistants.create(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(AssistantListDto, 'Assistants retrieved', {
    operationId: 'listAssistants',
    summary: "List the caller's assistants, newest first",
  })
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: PaginationQueryDto,
  ): Promise<AssistantListDto> {
    return this.assistants.list(user.user_id, query);
  }

  @Get('details/:assistant_id')
  @ETagged('details')
  @ApiRoute(AssistantDetailsDto, 'Assistant retrieved', {
    operationId: 'getAssistant',
    summary:
      'An assistant with every default filled in, its tool ids and timestamps; provider keys masked',
    description:
      'Without `version`, the working copy. With `?version=N`, that published version as it was ' +
      'published (its configuration and the ids of the tools attached then); 404 when it does not exist.',
  })
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Query() query: AssistantVersionQueryDto,
  ): Promise<AssistantDetailsDto> {
    return query.version === undefined
      ? this.assistants.details(user.user_id, assistantId)
      : this.versions.details(user.user_id, assistantId, query.version);
  }

  @Patch('update/:assistant_id')
  @ETagged('update')
  @ApiRoute(AssistantDetailsDto, 'Assistant updated', {
    operationId: 'updateAssistant',
    summary: 'Update an assistant partially',
    description:
      '`assistant_interaction_config` and `assistant_llm_config` merge key by key (`null` resets a key); ' +
      '`assistant_tts_config` merges too while the provider stays, and changing `assistant_tts_model` ' +
      "requires the new provider's full config. A masked `api_key` keeps the stored key. The merged " +
      'record must pass the create rules.',
    response: 'The updated assistant',
    errors: [422],
  })
  @ApiBody({ type: UpdateAssistantDto, examples: UPDATE_ASSISTANT_EXAMPLES })
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: UpdateAssistantDto,
  ): Promise<AssistantDetailsDto> {
    return this.assistants.update(user.user_id, assistantId, dto);
  }

  @Delete('delete/:assistant_id')
  @ETagged('delete')
  @ApiRoute(AssistantDeletedDto, 'Assistant deleted', {
    operationId: 'deleteAssistant',
    summary: 'Delete an assistant',
    description:
      'Also removes its tool attachments and detaches it from inbound mappings; its activity log stays.',
  })
  remove(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
  ): Promise<AssistantDeletedDto> {
    return this.assistants.remove(user.user_id, assistantId);
  }

  @Post('render/:assistant_id')
  @HttpCode(200)
  @ApiRoute(RenderedAssistantDto, 'Assistant rendered', {
    operationId: 'renderAssistant',
    summary: 'Render the prompt and start instruction with sample values',
    description:
      'Renders exactly as an inbound context lookup would: `{{context.<key>}}` from `context`, ' +
      '`{{call.caller_number|inbound_number|room_name|inbound_id|call_type}}` from `call`, and ' +
      '`{{context.<key> | default: "text"}}` (single or double quotes) when the value is missing, ' +
      'null or empty. `missing` lists the placeholders nothing provided. Nothing is stored or sent. ' +
      'A prompt or start instruction that would render past `MAX_RENDERED_PROMPT_BYTES` (256 KiB by ' +
      'default) is 400 naming `context` (or `call`) and the limit.',
    errors: [422],
  })
  @ApiBody({
    type: RenderAssistantDto,
    examples: {
      context_and_call: {
        summary: 'Context and call values',
        value: {
          context: { name: 'Asha', tier: 'gold' },
          call: { caller_number: '+919900011122', call_type: 'inbound' },
        },
      },
      nothing: { summary: 'No values: see what a failed lookup renders', value: {} },
    },
  })
  render(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: RenderAssistantDto,
  ): Promise<RenderedAssistantDto> {
    return this.assistants.render(user.user_id, assistantId, dto);
  }

  @Get('versions/:assistant_id')
  @ApiRoute(AssistantVersionListDto, 'Assistant versions retrieved', {
    operationId: 'listAssistantVersions',
    summary: "An assistant's published versions, newest first",
  })
  listVersions(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Query() query: PaginationQueryDto,
  ): Promise<AssistantVersionListDto> {
    return this.versions.list(user.user_id, assistantId, query);
  }
}
