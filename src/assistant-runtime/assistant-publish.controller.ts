import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { AssistantVersionDto, PublishAssistantDto } from '../assistant/dto/assistant-version.dto';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AssistantPublishService } from './assistant-publish.service';

/** `POST /assistant/publish/:assistant_id`: publishing snapshots the assistant and its tools. */
@ApiTags('assistant')
@ApiBearerAuth()
@Controller('assistant')
export class AssistantPublishController {
  constructor(private readonly publishing: AssistantPublishService) {}

  @Post('publish/:assistant_id')
  @HttpCode(200)
  @ApiRoute(AssistantVersionDto, 'Assistant version published', {
    operationId: 'publishAssistant',
    summary: 'Publish the working copy as the next immutable version',
    description:
      "Snapshots the assistant's current configuration and its attached tools' definitions. Versions " +
      'are numbered from 1 per assistant and never change; later updates change only the working copy. ' +
      'Inbound mappings pin a version with `assistant_version`. Versions are deleted with their assistant.',
    response: 'The new version',
    errors: [422],
  })
  @ApiBody({
    type: PublishAssistantDto,
    required: false,
    examples: {
      with_note: { summary: 'With a note', value: { note: 'Shorter greeting' } },
      bare: { summary: 'Without a note', value: {} },
    },
  })
  publish(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Body() dto: PublishAssistantDto,
  ): Promise<AssistantVersionDto> {
    return this.publishing.publish(user.user_id, assistantId, dto);
  }
}
