import { QueryParams } from '../core/query-params';
import { lastPage, parsePagination } from './pagination';

const parse = (qs: string, max = 500) => parsePagination(QueryParams.fromUrl(`/x?${qs}`), max);

describe('pagination', () => {
  it('defaults to page 1 of 30', () => {
    expect(parse('')).toEqual({ page: 1, itemsPerPage: 30, offset: 0 });
  });
  it('caps itemsPerPage silently at the maximum', () => {
    expect(parse('itemsPerPage=100000').itemsPerPage).toBe(500);
    expect(parse('itemsPerPage=100000', 50000).itemsPerPage).toBe(50000);
  });
  it.each(['page=0', 'page=-1', 'page=abc', 'page=1.5'])('rejects %s with 400', (qs) => {
    expect(() => parse(qs)).toThrow('Page should not be less than 1');
  });
  it('rejects negative itemsPerPage and itemsPerPage=0 beyond page 1', () => {
    expect(() => parse('itemsPerPage=-1')).toThrow(/should not be less than 0/);
    expect(() => parse('itemsPerPage=0&page=2')).toThrow(/greater than 1/);
    expect(parse('itemsPerPage=0')).toEqual({ page: 1, itemsPerPage: 0, offset: 0 });
  });
  it('computes the last page', () => {
    expect(lastPage(0, 30)).toBe(1);
    expect(lastPage(61, 30)).toBe(3);
    expect(lastPage(5, 0)).toBe(1);
  });
});
