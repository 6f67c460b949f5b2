import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiBody, ApiParam, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { PaginationQueryDto } from '../common/pagination/pagination-query.dto';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { CreateSecretDto } from './dto/create-secret.dto';
import { SecretDeletedDto, SecretDetailsDto, SecretListDto } from './dto/secret-response.dto';
import { UpdateSecretDto } from './dto/update-secret.dto';
import { SecretNameParam } from './secret-name.param';
import { SecretService } from './secret.service';

const NAME_PARAM = {
  name: 'secret_name',
  description: 'The secret name (`^[A-Z][A-Z0-9_]{0,63}$`)',
  example: 'CRM_TOKEN',
};

@ApiTags('secret')
@ApiBearerAuth()
@Controller('secret')
export class SecretController {
  constructor(private readonly secrets: SecretService) {}

  @Post('create')
  @HttpCode(200)
  @ApiRoute(SecretDetailsDto, 'Secret created', {
    operationId: 'createSecret',
    summary: 'Store a secret to reference as {{secret.NAME}}',
    description:
      'The value is write-only: encrypted at rest, never returned. Reference it as `{{secret.NAME}}` in a tool ' +
      "webhook's `url` and header values, a strategy's `strategy_config.url` and header values, " +
      '`assistant_end_call_url` and the provider `api_key` fields. `allowed_origins` says where the value may be ' +
      'sent (origins, or `["provider"]` for a provider key); left out, the first field that references it binds ' +
      "it to that field's origin. A reference from any other origin is refused when saved (400) and never " +
      'resolved when sent (`error_class: "blocked"`). 409 when the name exists.',
    response: 'Secret created',
    errors: [409],
  })
  @ApiBody({
    type: CreateSecretDto,
    examples: {
      crm_token: {
        summary: 'A CRM token',
        value: { secret_name: 'CRM_TOKEN', value: 'crm_live_3f9a7c1e2b' },
      },
      bound: {
        summary: 'A token bound to one origin',
        value: {
          secret_name: 'CRM_TOKEN',
          value: 'crm_live_3f9a7c1e2b',
          allowed_origins: ['https://api.example.com'],
        },
      },
    },
  })
  create(@CurrentUser() user: AuthUser, @Body() dto: CreateSecretDto): Promise<SecretDetailsDto> {
    return this.secrets.create(user.user_id, dto);
  }

  @Get('list')
  @ApiRoute(SecretListDto, 'Secrets retrieved', {
    operationId: 'listSecrets',
    summary: "List the caller's secrets, newest first (never their values)",
  })
  list(@CurrentUser() user: AuthUser, @Query() query: PaginationQueryDto): Promise<SecretListDto> {
    return this.secrets.list(user.user_id, query);
  }

  @Get('details/:secret_name')
  @ApiRoute(SecretDetailsDto, 'Secret retrieved', {
    operationId: 'getSecret',
    summary: 'A secret: version, timestamps and every field that references it',
  })
  @ApiParam(NAME_PARAM)
  details(
    @CurrentUser() user: AuthUser,
    @SecretNameParam() name: string,
  ): Promise<SecretDetailsDto> {
    return this.secrets.details(user.user_id, name);
  }

  @Patch('update/:secret_name')
  @ApiRoute(SecretDetailsDto, 'Secret rotated', {
    operationId: 'updateSecret',
    summary: 'Rotate a secret, or change where it may be sent',
    description:
      'With `value`: replaces the value and adds 1 to `version`. Every reference resolves to the new value from ' +
      'the next request on (published versions too), with no edit of what references it. With ' +
      '`allowed_origins` (a request of its own, audited): where the value may be sent from now on. 400 naming ' +
      'each field that would then reference the secret from an origin not allowed, or put in a header a value ' +
      'the header rules refuse.',
    response: 'Secret rotated or its origins changed',
  })
  @ApiParam(NAME_PARAM)
  @ApiBody({
    type: UpdateSecretDto,
    examples: {
      rotate: { summary: 'A new value', value: { value: 'crm_live_8d2e4b6a1f' } },
      origins: {
        summary: 'Where it may be sent',
        value: { allowed_origins: ['https://api.example.com', 'https://*.crm.example.com'] },
      },
    },
  })
  update(
    @CurrentUser() user: AuthUser,
    @SecretNameParam() name: string,
    @Body() dto: UpdateSecretDto,
  ): Promise<SecretDetailsDto> {
    return this.secrets.update(user.user_id, name, dto);
  }

  @Delete('delete/:secret_name')
  @ApiRoute(SecretDeletedDto, 'Secret deleted', {
    operationId: 'deleteSecret',
    summary: 'Delete a secret',
    description:
      '409 with `data.used_by` (`[{resource_type, resource_id, field}]`) while a tool, strategy, assistant or published version ' +
      'references it.',
    response: 'Secret deleted',
    errors: [409],
  })
  @ApiParam(NAME_PARAM)
  remove(
    @CurrentUser() user: AuthUser,
    @SecretNameParam() name: string,
  ): Promise<SecretDeletedDto> {
    return this.secrets.remove(user.user_id, name);
  }
}
