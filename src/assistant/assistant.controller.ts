import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiExtraModels, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { ApiEnvelopeErrors, ApiEnvelopeResponse } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { AssistantService } from './assistant.service';
import {
  AssistantCreatedDto,
  AssistantDeletedDto,
  AssistantDetailsDto,
  AssistantListDto,
} from './dto/assistant-response.dto';
import { CREATE_ASSISTANT_EXAMPLES, CreateAssistantDto } from './dto/create-assistant.dto';
import {
  CartesiaTtsConfigDto,
  ElevenLabsTtsConfigDto,
  MistralTtsConfigDto,
  SarvamTtsConfigDto,
} from './dto/tts-config.dto';
import { UpdateAssistantDto } from './dto/update-assistant.dto';

@ApiTags('Assistant')
@ApiBearerAuth()
@ApiExtraModels(
  CartesiaTtsConfigDto,
  SarvamTtsConfigDto,
  ElevenLabsTtsConfigDto,
  MistralTtsConfigDto,
)
@Controller('assistant')
export class AssistantController {
  constructor(private readonly assistants: AssistantService) {}

  @Post('create')
  @HttpCode(200)
  @ResponseMessage('Assistant created')
  @ApiOperation({
    summary: 'Create an assistant',
    description:
      'Pipeline mode requires `assistant_tts_model` and `assistant_tts_config` (shape per provider). ' +
      'Realtime mode requires `assistant_llm_config` (`{}` takes every default) and stores ' +
      '`filler_words` false; TTS fields sent with realtime mode are accepted but unused.',
  })
  @ApiBody({ type: CreateAssistantDto, examples: CREATE_ASSISTANT_EXAMPLES })
  @ApiEnvelopeResponse(AssistantCreatedDto, { description: 'Assistant created' })
  @ApiEnvelopeErrors(400, 422)
  create(
    @CurrentUser() user: AuthUser,
    @Body() dto: CreateAssistantDto,
  ): Promise<AssistantCreatedDto> {
    return this.assistants.create(user.user_id, dto);
  }

  @Get('list')
  @ResponseMessage('Assistants retrieved')
  @ApiOperation({ summary: "List the caller's assistants, newest first" })
  @ApiEnvelopeResponse(AssistantListDto)
  @ApiEnvelopeErrors(400)
  list(
    @CurrentUser() user: AuthUser,
    @Query() query: PaginationQueryDto,
  ): Promise<AssistantListDto> {
    return this.assistants.list(user.user_id, query);
  }

  @Get('details/:assistant_id')
  @ResponseMessage('Assistant retrieved')
  @ApiOperation({
    summary:
      'An assistant with every default filled in, its tool ids and timestamps; provider keys masked',
  })
  @ApiEnvelopeResponse(AssistantDetailsDto)
  @ApiEnvelopeErrors(400, 404)
  details(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
  ): Promise<AssistantDetailsDto> {
    return this.assistants.details(user.user_id, assistantId);
  }

  @Patch('update/:assistant_id')
  @ResponseMessage('Assistant updated')
  @ApiOperation({
    summary: 'Update an assistant partially',
    description:
      '`assistant_interaction_config` and `assistant_llm_config` merge key by key (`null` resets a key); ' +
      '`assistant_tts_config` merges too while the provider stays, and changing `assistant_tts_model` ' +
      "requires the new provider's full config. A masked `api_key` keeps the stored key. The merged " +
      'record must pass the create rules.',
  })
  @ApiEnvelopeResponse(AssistantDetailsDto, { description: 'The updated assistant' })
  @ApiEnvelopeErrors(400, 404, 422)
  update(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: UpdateAssistantDto,
  ): Promise<AssistantDetailsDto> {
    return this.assistants.update(user.user_id, assistantId, dto);
  }

  @Delete('delete/:assistant_id')
  @ResponseMessage('Assistant deleted')
  @ApiOperation({
    summary: 'Delete an assistant',
    description:
      'Also removes its tool attachments and detaches it from inbound mappings; its activity log stays.',
  })
  @ApiEnvelopeResponse(AssistantDeletedDto)
  @ApiEnvelopeErrors(400, 404)
  remove(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
  ): Promise<AssistantDeletedDto> {
    return this.assistants.remove(user.user_id, assistantId);
  }
}
