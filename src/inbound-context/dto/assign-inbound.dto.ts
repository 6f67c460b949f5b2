import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsObject,
  IsOptional,
  IsUUID,
  ValidateNested,
} from 'class-validator';
import { INBOUND_SERVICES, type InboundService } from '../inbound-context.constants';
import { InboundConfigDto } from './inbound-config.dto';

export class AssignInboundDto {
  /** The assistant that answers calls to this number; must be yours. */
  @IsUUID()
  assistant_id: string;

  /** Strategy run before the call starts to fetch caller context; must be yours. */
  @ApiProperty({ type: String, format: 'uuid', nullable: true, required: false })
  @IsOptional()
  @IsUUID()
  inbound_context_strategy_id?: string | null;

  /** The inbound telephony provider; currently `exotel`. */
  @IsIn(INBOUND_SERVICES)
  service: InboundService;

  @IsDefined()
  @IsObject()
  @ValidateNested()
  @Type(() => InboundConfigDto)
  inbound_config: InboundConfigDto;

  /** Only an active mapping routes calls; one active mapping per number. Default true. */
  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}

/** Every field optional; `null` detaches the assistant or the strategy. */
export class UpdateInboundDto {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, required: false })
  @IsOptional()
  @IsUUID()
  assistant_id?: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, required: false })
  @IsOptional()
  @IsUUID()
  inbound_context_strategy_id?: string | null;

  @IsOptional()
  @IsIn(INBOUND_SERVICES)
  service?: InboundService;

  @IsOptional()
  @IsObject()
  @ValidateNested()
  @Type(() => InboundConfigDto)
  inbound_config?: InboundConfigDto;

  @IsOptional()
  @IsBoolean()
  is_active?: boolean;
}
