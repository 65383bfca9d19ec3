import { ApiError } from '../common/errors/api-errors';
import { exportFilters, exportRequest } from './export-request';

function statusOf(fn: () => unknown): number {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  return 200;
}

describe('exportFilters', () => {
  it('turns a filter object into the collection’s query parameters, in order', () => {
    expect(
      exportFilters({
        filters: {
          trackingStatus: ['delivered', 'expired'],
          'originCarrier[]': ['ups'],
          createdAt: { after: '2024-01-01' },
          order: { createdAt: 'asc', id: 'desc' },
          'address.city': 'Paris',
          daysInTransit: 3,
          skipped: null,
        },
      }),
    ).toEqual([
      ['trackingStatus[]', 'delivered'],
      ['trackingStatus[]', 'expired'],
      ['originCarrier[]', 'ups'],
      ['createdAt[after]', '2024-01-01'],
      ['order[createdAt]', 'asc'],
      ['order[id]', 'desc'],
      ['address.city', 'Paris'],
      ['daysInTransit', '3'],
    ]);
  });

  it('reads query strings and the reference’s params, without paging', () => {
    expect(exportFilters({ filters: '?email=a%40b.c&page=2&order[createdAt]=asc' })).toEqual([
      ['email', 'a@b.c'],
      ['order[createdAt]', 'asc'],
    ]);
    expect(exportFilters({ params: ['trackingStatus=delivered', 'itemsPerPage=5'] })).toEqual([
      ['trackingStatus', 'delivered'],
    ]);
    expect(exportFilters({})).toEqual([]);
  });

  it('400 for filters or params of the wrong type', () => {
    expect(statusOf(() => exportFilters({ filters: [1] }))).toBe(400);
    expect(statusOf(() => exportFilters({ filters: 5 }))).toBe(400);
    expect(statusOf(() => exportFilters({ filters: { a: [{}] } }))).toBe(400);
    expect(statusOf(() => exportFilters({ params: 'a=b' }))).toBe(400);
    expect(statusOf(() => exportFilters({ params: [1] }))).toBe(400);
  });
});

describe('exportRequest', () => {
  it('reads the entity and the format (csv by default)', () => {
    expect(exportRequest({ entity: 'orders' })).toEqual({
      entity: 'orders',
      format: 'csv',
      filters: [],
    });
    expect(exportRequest({ entity: 'shipments', format: 'CSV' }).format).toBe('csv');
  });

  it('422 for a missing or unknown entity or format', () => {
    expect(statusOf(() => exportRequest({}))).toBe(422);
    expect(statusOf(() => exportRequest({ entity: 'users' }))).toBe(422);
    expect(statusOf(() => exportRequest({ entity: 'orders', format: 'xlsx' }))).toBe(422);
    expect(statusOf(() => exportRequest({ entity: 1 }))).toBe(400);
  });
});
