import { ApiProperty } from '@nestjs/swagger';

export class NumberMappingDto {
  inbound_id: string;
  /** The user who made the mapping. */
  user_id: string;
  @ApiProperty({ type: String, nullable: true })
  assistant_id: string | null;
  is_active: boolean;
  /** ISO 8601, UTC. */
  created_at: string;
}

/** `data` of the operator's phone number routes. */
export class NumberHoldingDto {
  /** @example "918012345678" */
  phone_number_normalized: string;

  /** The user the number belongs to; null when no one holds it. */
  @ApiProperty({ type: String, nullable: true })
  user_id: string | null;

  /** When the holder first assigned it (ISO 8601, UTC). */
  @ApiProperty({ type: String, nullable: true })
  held_since: string | null;

  /** Every mapping of the number, oldest first. */
  mappings: NumberMappingDto[];
}
