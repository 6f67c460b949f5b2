import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiBody,
  ApiExtension,
  ApiExtraModels,
  ApiOperation,
  ApiResponse,
  ApiTags,
  getSchemaPath,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiEnvelopeErrors, ApiRoute } from '../common/envelope/api-envelope.decorator';
import { ResponseMessage } from '../common/envelope/response-message.decorator';
import { UuidParam } from '../common/validation/uuid-param.decorator';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { HoldsCredential } from '../idempotency/response-sealer';
import { AdminKeyGuard } from './admin-key.guard';
import { RequiresScope } from './api-key-scope';
import { AuthService } from './auth.service';
import {
  ApiKeyInfoDto,
  ApiKeyListDto,
  AuthUserDto,
  CreatedKeyDto,
  WebhookSecretDto,
} from './dto/auth-response.dto';
import { CreateKeyDto } from './dto/create-key.dto';
import { ListKeysQueryDto } from './dto/list-keys-query.dto';
import { Public } from './public.decorator';
import { WebhookSecretsService } from './webhook-secrets.service';

/** The envelope of `GET /auth/keys`: the page (default) or, with `shape=array`, the deprecated array. */
const KEY_LIST_SCHEMA = {
  type: 'object',
  required: ['success', 'message', 'data'],
  properties: {
    success: { type: 'boolean', example: true },
    message: { type: 'string' },
    data: {
      oneOf: [
        { $ref: getSchemaPath(ApiKeyListDto) },
        { type: 'array', items: { $ref: getSchemaPath(ApiKeyInfoDto) }, deprecated: true },
      ],
    },
  },
};

const CREATE_KEY_EXAMPLES = {
  dashboard: {
    summary: 'A management key for a dashboard',
    value: {
      user_name: 'Ada',
      user_email: 'ada@example.com',
      org_name: 'Acme',
      scopes: ['config'],
    },
  },
  call_stack: {
    summary: 'A runtime-only key for the call stack',
    value: { user_name: 'Ada', user_email: 'ada@example.com', scopes: ['runtime'] },
  },
};

@ApiTags('auth')
@ApiBearerAuth()
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly webhookSecrets: WebhookSecretsService,
  ) {}

  @Post('create-key')
  @HoldsCredential()
  @HttpCode(200)
  @Public()
  @UseGuards(AdminKeyGuard)
  @ApiExtension('x-api-key-scope', 'operator')
  @ApiRoute(CreatedKeyDto, 'API key created', {
    operationId: 'createApiKey',
    summary: 'Create an API key (operator only: Bearer ADMIN_API_KEY). The key is shown once.',
    errors: [403],
  })
  @ApiBody({ type: CreateKeyDto, examples: CREATE_KEY_EXAMPLES })
  createKey(@Body() dto: CreateKeyDto): Promise<CreatedKeyDto> {
    return this.auth.createKey(dto);
  }

  @Get('check-key')
  @RequiresScope(null)
  @ApiRoute(AuthUserDto, 'API key is valid', {
    operationId: 'checkApiKey',
    summary:
      "The user the presented API key belongs to, and the key's scopes (any scope may call it)",
  })
  checkKey(@CurrentUser() user: AuthUser): AuthUserDto {
    return user;
  }

  @Get('keys')
  @ApiOperation({
    operationId: 'listApiKeys',
    summary: "The caller's API keys (prefixes only), newest first",
    description:
      '`data` is `{items, total, page, limit}` as on every list route. `shape=array` answers the ' +
      'previous shape, a bare array of every key, with a `Deprecation` header: it is removed in the next release.',
  })
  @ResponseMessage('API keys')
  @ApiExtraModels(ApiKeyListDto, ApiKeyInfoDto)
  @ApiResponse({ status: 200, description: 'Success', schema: KEY_LIST_SCHEMA })
  @ApiEnvelopeErrors(400)
  async listKeys(
    @CurrentUser() user: AuthUser,
    @Query() query: ListKeysQueryDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<ApiKeyListDto | ApiKeyInfoDto[]> {
    const keys = await this.auth.listKeys(user.user_id);
    if (query.shape === 'array') {
      res.setHeader('Deprecation', 'true');
      return keys;
    }
    const start = (query.page - 1) * query.limit;
    const items = keys.slice(start, start + query.limit);
    return { items, total: keys.length, page: query.page, limit: query.limit };
  }

  @Delete('keys/:api_key_id')
  @ApiRoute(ApiKeyInfoDto, 'API key revoked', {
    operationId: 'revokeApiKey',
    summary: "Revoke one of the caller's API keys",
  })
  revokeKey(
    @CurrentUser() user: AuthUser,
    @UuidParam('api_key_id') apiKeyId: string,
  ): Promise<ApiKeyInfoDto> {
    return this.auth.revokeKey(user.user_id, apiKeyId);
  }

  @Get('webhook-secret')
  @ApiRoute(WebhookSecretDto, 'Webhook signing secret', {
    operationId: 'getWebhookSecret',
    summary: 'The Standard Webhooks secret that signs every request sent to your endpoints',
  })
  webhookSecret(@CurrentUser() user: AuthUser): Promise<WebhookSecretDto> {
    return this.webhookSecrets.get(user.user_id);
  }

  @Post('webhook-secret/rotate')
  @HoldsCredential()
  @HttpCode(200)
  @ApiRoute(WebhookSecretDto, 'Webhook signing secret rotated', {
    operationId: 'rotateWebhookSecret',
    summary: 'Rotate the signing secret; the previous one keeps signing during the grace period',
  })
  rotateWebhookSecret(@CurrentUser() user: AuthUser): Promise<WebhookSecretDto> {
    return this.webhookSecrets.rotate(user.user_id);
  }
}
