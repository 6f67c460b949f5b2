import { ApiProperty } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsIn,
  IsInt,
  IsObject,
  IsOptional,
  IsUUID,
  Max,
  Min,
  ValidateNested,
} from 'class-validator';
import { MAX_ASSISTANT_VERSION } from '../../assistant/dto/assistant-version.dto';
import { INBOUND_SERVICES, type InboundService } from '../inbound-context.constants';
import { InboundConfigDto } from './inbound-config.dto';

export class AssignInboundDto {
  /** The assistant that answers calls to this number; must be yours. */
  @IsUUID()
  assistant_id: string;

  /**
   * A published version of the assistant (`POST /assistant/publish/:assistant_id`) that lookups
   * render; null or absent: the working copy. Must exist (404 otherwise).
   */
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true, required: false, example: 2 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ASSISTANT_VERSION)
  assistant_version?: number | null;

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

  /**
   * A published version of the assistant (`POST /assistant/publish/:assistant_id`) that lookups
   * render; null: the working copy; a new `assistant_id` without it resets the pin. Must exist (404 otherwise).
   */
  @ApiProperty({ type: 'integer', minimum: 1, nullable: true, required: false, example: 2 })
  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(MAX_ASSISTANT_VERSION)
  assistant_version?: number | null;

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
