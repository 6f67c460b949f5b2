import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { RequiresScope } from '../auth/api-key-scope';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import { AssistantVersionQueryDto } from '../assistant/dto/assistant-version.dto';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AssistantRuntimeDto } from './assistant-runtime.dto';
import { AssistantRuntimeService } from './assistant-runtime.service';

@ApiTags('assistant')
@ApiBearerAuth()
@Controller('assistant')
export class AssistantRuntimeController {
  constructor(private readonly runtime: AssistantRuntimeService) {}

  @Get('runtime/:assistant_id')
  @RequiresScope('runtime')
  @ApiRoute(AssistantRuntimeDto, 'Assistant runtime configuration retrieved', {
    operationId: 'getAssistantRuntime',
    summary:
      'SENSITIVE: effective configuration and tools for a call worker (provider keys in clear)',
    description:
      '**Sensitive.** Unlike every other read, this returns the provider `api_key`s of `assistant_tts_config` and ' +
      '`assistant_llm_config` in clear, because the call worker needs them to open the provider sessions. Call it ' +
      'only from the call stack, never from a browser, and do not log the response. Needs a key with the `runtime` ' +
      'scope (403 otherwise); such a key is created with `scopes: ["runtime"]`. Defaults and realtime overrides ' +
      'are applied. `tools` holds the attached tools as language-model function definitions ' +
      '(`{type: "function", function: {name, description, parameters}}`), plus the built-in `end_call` function ' +
      'when `assistant_end_call_enabled`; `tool_bindings` maps each function name to the `tool_id` a `tool-call` ' +
      'job takes. Webhook URLs and headers of the tools are not included: tool calls run through the `tool-call` queue. ' +
      'With `?version=N` it returns that published version (its configuration and tool definitions as published); ' +
      '404 when the version does not exist. An `api_key` written as `{{secret.NAME}}` is returned resolved to the ' +
      "secret's current value; 409 when a published version references a secret deleted since.",
    response: 'Runtime configuration (contains secrets)',
    errors: [409],
  })
  get(
    @CurrentUser() user: AuthUser,
    @UuidParam('assistant_id') assistantId: string,
    @Query() query: AssistantVersionQueryDto,
  ): Promise<AssistantRuntimeDto> {
    return this.runtime.runtime(user.user_id, assistantId, query.version);
  }
}
