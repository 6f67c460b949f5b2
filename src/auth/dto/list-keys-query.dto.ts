import { PaginationQueryDto } from '../../common/pagination/pagination-query.dto';
import { ValidateEnum } from '../../common/validation/validation';

/** The shapes `GET /auth/keys` answers in: `page` is the standard one. */
export const KEY_LIST_SHAPES = ['page', 'array'] as const;
export type KeyListShape = (typeof KEY_LIST_SHAPES)[number];

/** `GET /auth/keys`: `page` and `limit` as on every list route. */
export class ListKeysQueryDto extends PaginationQueryDto {
  /**
   * `array`: the previous shape, `data` a bare array of every key (deprecated, answered with a
   * `Deprecation` header; removed in the next release). Default `page`: `{items, total, page, limit}`.
   */
  @ValidateEnum(KEY_LIST_SHAPES, { optional: true })
  shape?: KeyListShape;
}
