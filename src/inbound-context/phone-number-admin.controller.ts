import { Controller, Delete, Get, Param, UseGuards } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiTags } from '@nestjs/swagger';
import { AdminKeyGuard } from '../auth/admin-key.guard';
import { Public } from '../auth/public.decorator';
import { AppException } from '../common/errors/app.exception';
import { toIso } from '../common/time/iso';
import { ApiRoute } from '../common/envelope/api-envelope.decorator';
import { NumberHoldingDto } from './dto/number-holding.dto';
import { type NumberHolding, PhoneNumberHolders } from './phone-number-holders';
import { PhoneNumberPipe } from './phone-number.pipe';

function toHoldingDto(number: string, { holder, mappings }: NumberHolding): NumberHoldingDto {
  return {
    phone_number_normalized: number,
    user_id: holder?.user_id ?? null,
    held_since: holder ? toIso(holder.created_at) : null,
    mappings: mappings.map((mapping) => ({
      inbound_id: mapping.inbound_id,
      user_id: mapping.user_id,
      assistant_id: mapping.assistant_id,
      is_active: Boolean(mapping.is_active),
      created_at: toIso(mapping.created_at),
    })),
  };
}

/**
 * Operator routes (Bearer `ADMIN_API_KEY`) for phone numbers: who holds one, and releasing it so
 * another user can assign it (its mappings are deleted). Users never learn who holds a number.
 */
@ApiTags('operator')
@ApiBearerAuth()
@ApiExtension('x-api-key-scope', 'operator')
@Public()
@UseGuards(AdminKeyGuard)
@Controller('admin/numbers')
export class PhoneNumberAdminController {
  constructor(private readonly holders: PhoneNumberHolders) {}

  @Get(':phone_number')
  @ApiRoute(NumberHoldingDto, 'Phone number holder retrieved', {
    operationId: 'getPhoneNumberHolder',
    summary: 'Who holds a phone number, and every mapping of it (operator only)',
    errors: [403],
  })
  async holder(
    @Param('phone_number', new PhoneNumberPipe()) number: string,
  ): Promise<NumberHoldingDto> {
    const holding = await this.holders.holding(number);
    if (!holding.holder && holding.mappings.length === 0)
      throw AppException.notFound('Phone number');
    return toHoldingDto(number, holding);
  }

  @Delete(':phone_number')
  @ApiRoute(NumberHoldingDto, 'Phone number released', {
    operationId: 'releasePhoneNumber',
    summary:
      'Release a phone number (operator only): delete every mapping of it, whoever made them, so anyone can assign it',
    response: 'What was released',
    errors: [403],
  })
  async release(
    @Param('phone_number', new PhoneNumberPipe()) number: string,
  ): Promise<NumberHoldingDto> {
    const released = await this.holders.release(number);
    if (!released.holder && released.mappings.length === 0)
      throw AppException.notFound('Phone number');
    return toHoldingDto(number, released);
  }
}
