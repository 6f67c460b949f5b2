import { ApiProperty } from '@nestjs/swagger';

/** The page fields of a paged list's `data`, beside its entries. */
export class PageMetaDto {
  /** Entries matching the filters, across all pages. */
  @ApiProperty({ type: 'integer' })
  total: number;

  @ApiProperty({ type: 'integer' })
  page: number;

  @ApiProperty({ type: 'integer' })
  limit: number;
}
