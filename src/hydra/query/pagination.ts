import type { ApiRecord } from '../core/api-record';
import { BadRequestError } from '../../common/errors/api-errors';
import type { QueryParams } from '../core/query-params';

export interface Pagination {
  page: number;
  itemsPerPage: number;
  offset: number;
}

/** A page of a collection as read: its records, the count of all, the page asked for. */
export interface CollectionResult {
  members: ApiRecord[];
  totalItems: number;
  pagination: Pagination;
}

export const DEFAULT_ITEMS_PER_PAGE = 30;

/** API Platform's pagination rules: page >= 1, itemsPerPage >= 0, capped at the resource maximum. */
export function parsePagination(params: QueryParams, maxItemsPerPage: number): Pagination {
  const rawPage = params.get('page');
  let page = 1;
  if (rawPage !== undefined) {
    if (!/^-?\d+$/.test(rawPage.trim()) || Number(rawPage) < 1) {
      throw new BadRequestError('Page should not be less than 1');
    }
    page = Number(rawPage);
  }
  let itemsPerPage = DEFAULT_ITEMS_PER_PAGE;
  const rawItems = params.get('itemsPerPage');
  if (rawItems !== undefined && /^-?\d+$/.test(rawItems.trim())) {
    itemsPerPage = Number(rawItems);
    if (itemsPerPage < 0)
      throw new BadRequestError('Item per page parameter should not be less than 0');
    itemsPerPage = Math.min(itemsPerPage, maxItemsPerPage);
  }
  if (itemsPerPage === 0 && page > 1) {
    throw new BadRequestError('Page should not be greater than 1 if limit is equal to 0');
  }
  if (!Number.isSafeInteger((page - 1) * itemsPerPage)) {
    throw new BadRequestError('Page should not be less than 1');
  }
  return { page, itemsPerPage, offset: (page - 1) * itemsPerPage };
}

export function lastPage(totalItems: number, itemsPerPage: number): number {
  if (itemsPerPage <= 0) return 1;
  return Math.max(1, Math.ceil(totalItems / itemsPerPage));
}
