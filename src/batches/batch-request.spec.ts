import { ApiError, NotFoundError, ValidationError } from '../common/errors/api-errors';
import { BATCH_ENTITIES, DELETE_BATCH_ENTITIES, STATUS_BATCH_ENTITIES } from './batch-entities';
import { batchRequest, statusSpec } from './batch-request';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

function statusOf(fn: () => unknown): number {
  try {
    fn();
  } catch (error) {
    if (error instanceof ApiError) return error.status;
    throw error;
  }
  return 200;
}

describe('batchRequest', () => {
  it('reads the entity and the ids (ids or IRIs of the collection), deduplicated', () => {
    expect(
      batchRequest(
        { entity: 'shipments', ids: [A, `/shipments/${B}`, A.toUpperCase()] },
        STATUS_BATCH_ENTITIES,
        10,
      ),
    ).toEqual({ entity: BATCH_ENTITIES.shipments, ids: [A, B] });
  });

  it('404 for values that are no id of the collection', () => {
    for (const id of ['x', `/orders/${A}`, `/shipments/${A}/items`]) {
      expect(() =>
        batchRequest({ entity: 'shipments', ids: [id] }, STATUS_BATCH_ENTITIES, 10),
      ).toThrow(NotFoundError);
    }
  });

  it('422 for a missing or unknown entity and lists of the wrong size; 400 for types', () => {
    expect(statusOf(() => batchRequest({ ids: [A] }, STATUS_BATCH_ENTITIES, 10))).toBe(422);
    expect(
      statusOf(() => batchRequest({ entity: 'order_items', ids: [A] }, STATUS_BATCH_ENTITIES, 10)),
    ).toBe(422);
    expect(
      statusOf(() => batchRequest({ entity: 'order_items', ids: [A] }, DELETE_BATCH_ENTITIES, 10)),
    ).toBe(200);
    expect(
      statusOf(() => batchRequest({ entity: 'orders', ids: [] }, STATUS_BATCH_ENTITIES, 10)),
    ).toBe(422);
    expect(
      statusOf(() => batchRequest({ entity: 'orders', ids: [A, B] }, STATUS_BATCH_ENTITIES, 1)),
    ).toBe(422);
    expect(
      statusOf(() => batchRequest({ entity: 'orders', ids: A }, STATUS_BATCH_ENTITIES, 10)),
    ).toBe(400);
    expect(
      statusOf(() => batchRequest({ entity: ['orders'], ids: [A] }, STATUS_BATCH_ENTITIES, 10)),
    ).toBe(400);
  });
});

describe('statusSpec', () => {
  it('reads an id, an IRI or a code', () => {
    expect(statusSpec({ statusId: A })).toEqual({ id: A });
    expect(statusSpec({ statusId: `/statuses/${A}` })).toEqual({ id: A });
    expect(statusSpec({ status: `/statuses/${A}` })).toEqual({ id: A });
    expect(statusSpec({ status: ' packed ' })).toEqual({ code: 'packed' });
  });

  it('422 for a missing status or a statusId that is no status id; 400 for types', () => {
    expect(() => statusSpec({})).toThrow(ValidationError);
    expect(() => statusSpec({ statusId: 'packed' })).toThrow(ValidationError);
    expect(() => statusSpec({ status: `/orders/${A}` })).toThrow(ValidationError);
    expect(statusOf(() => statusSpec({ status: 1 }))).toBe(400);
  });
});
