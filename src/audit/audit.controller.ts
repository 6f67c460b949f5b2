import { Controller, Get, Query } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { AuthUser } from '../common/auth/auth-user';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { AuditService } from './audit.service';
import { AuditPageDto } from './dto/audit-entry.dto';
import { AuditQueryDto } from './dto/audit-query.dto';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('audit')
export class AuditController {
  constructor(private readonly audit: AuditService) {}

  @Get()
  @ApiRoute(AuditPageDto, 'Audit entries retrieved', {
    operationId: 'listAuditEntries',
    summary: "The caller's audit trail, newest first",
    description:
      'One entry per change to an assistant, tool, strategy, inbound mapping, secret, API key or the webhook ' +
      'secret: who made it (user and API key; null for the operator), the request id, and each changed field ' +
      'before and after, shown as reads show it (secret values never). Entries are kept as long as the ' +
      'activity log (`LOG_RETENTION_DAYS`).',
    response: 'One page of entries',
  })
  list(@CurrentUser() user: AuthUser, @Query() query: AuditQueryDto): Promise<AuditPageDto> {
    return this.audit.list(user.user_id, query);
  }
}
