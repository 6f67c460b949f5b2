import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsInt, Max, Min, ValidateBy, type ValidationOptions } from 'class-validator';
import type { FindOptionsOrder, FindOptionsWhere, ObjectLiteral, Repository } from 'typeorm';
import { Optional } from '../validation/validation';

export const MAX_PAGE_SIZE = 100;
export const DEFAULT_PAGE_SIZE = 50;

/**
 * `page` such that the offset of its last row, `page * limit`, is a safe integer: a larger page
 * could only be empty, and its offset cannot be written exactly into SQL.
 */
function IsReachablePage(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isReachablePage',
      validator: {
        validate: (page: unknown, args) => {
          const limit = (args?.object as { limit?: unknown } | undefined)?.limit;
          const size =
            typeof limit === 'number' && Number.isInteger(limit) && limit > 0
              ? limit
              : MAX_PAGE_SIZE;
          return typeof page === 'number' && Number.isSafeInteger(page * size);
        },
        defaultMessage: () => 'page is too large: page × limit must be at most 9007199254740991',
      },
    },
    options,
  );
}

/** `page` (>= 1, default 1) and `limit` (1-100, default 50) of every list route. */
export class PaginationQueryDto {
  /** Page number, starting at 1. */
  @ApiPropertyOptional({ type: 'integer', minimum: 1, default: 1 })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @IsReachablePage()
  page: number = 1;

  /** Page size, at most 100. */
  @ApiPropertyOptional({
    type: 'integer',
    minimum: 1,
    maximum: MAX_PAGE_SIZE,
    default: DEFAULT_PAGE_SIZE,
  })
  @Optional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  limit: number = DEFAULT_PAGE_SIZE;
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
