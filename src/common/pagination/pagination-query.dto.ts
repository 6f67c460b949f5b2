import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, Max, Min } from 'class-validator';
import type { FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';

/** `page` (>= 1, default 1) and `limit` (1-100, default 50) of every list route. */
export class PaginationQueryDto {
  /** Page number, starting at 1. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page: number = 1;

  /** Page size, at most 100. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: 100, default: 50 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(100)
  limit: number = 50;
}

export interface Paginated<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

export function skipOf(query: PaginationQueryDto): number {
  return (query.page - 1) * query.limit;
}

/**
 * One page of `repo` rows matching `where`, newest first by `order`, with the total. The page and
 * the count are independent reads, so they run at the same time (TypeORM's `findAndCount` runs
 * them one after the other).
 */
export async function findPage<E extends ObjectLiteral, T>(
  repo: Repository<E>,
  where: FindOptionsWhere<E>,
  order: FindOptionsOrder<E>,
  query: PaginationQueryDto,
  toItems: (rows: E[]) => T[] | Promise<T[]>,
): Promise<Paginated<T>> {
  const [rows, total] = await Promise.all([
    repo.find({ where, order, skip: skipOf(query), take: query.limit }),
    repo.count({ where }),
  ]);
  return { items: await toItems(rows), total, page: query.page, limit: query.limit };
}
