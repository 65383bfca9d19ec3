import { ApiError } from '../common/errors/api-errors';
import { MAX_MERGED, mergeRequest } from './shipment-merge-request';

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

describe('mergeRequest', () => {
  it('reads the target and the duplicates', () => {
    expect(mergeRequest({ target: `/shipments/${A}`, shipments: [B, `/shipments/${B}`] })).toEqual({
      target: A,
      shipments: [B],
    });
  });

  it('422 for the target among the merged, a missing target or an empty list', () => {
    expect(statusOf(() => mergeRequest({ target: A, shipments: [B, A] }))).toBe(422);
    expect(statusOf(() => mergeRequest({ shipments: [B] }))).toBe(422);
    expect(statusOf(() => mergeRequest({ target: A, shipments: [] }))).toBe(422);
  });

  it('404 for values that are no shipment id; 400 for types', () => {
    expect(statusOf(() => mergeRequest({ target: `/orders/${A}`, shipments: [B] }))).toBe(404);
    expect(statusOf(() => mergeRequest({ target: A, shipments: ['nope'] }))).toBe(404);
    expect(statusOf(() => mergeRequest({ target: 1, shipments: [B] }))).toBe(400);
    expect(statusOf(() => mergeRequest({ target: A, shipments: B }))).toBe(400);
  });

  it('reads the plugin form: the target, the tracking number and the workspace', () => {
    expect(
      mergeRequest({ target: A, trackingNumber: ' TM123 ', workspaceId: `/workspaces/${B}` }),
    ).toEqual({ target: A, shipments: [], trackingNumber: 'TM123', workspaceId: B });
    expect(mergeRequest({ target: A, trackingNumber: 'TM123' })).toEqual({
      target: A,
      shipments: [],
      trackingNumber: 'TM123',
    });
  });

  it(`422 for more than ${MAX_MERGED} duplicates`, () => {
    const many = Array.from(
      { length: MAX_MERGED + 1 },
      (_, i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
    );
    expect(statusOf(() => mergeRequest({ target: A, shipments: many }))).toBe(422);
    expect(mergeRequest({ target: A, shipments: many.slice(1) }).shipments).toHaveLength(
      MAX_MERGED,
    );
  });
});
