import { ApiError } from '../common/errors/api-errors';
import { duplicateInBatch, refuseDuplicateSyncId } from './external-sync-id';

describe('refuseDuplicateSyncId', () => {
  it('asks nothing for a record without a store id', async () => {
    const taken = jest.fn();
    await refuseDuplicateSyncId('order', null, taken);
    expect(taken).not.toHaveBeenCalled();
  });

  it('refuses a taken store id with a 400 naming externalSourceSyncId', async () => {
    const error = await refuseDuplicateSyncId('product', '42', () => Promise.resolve(true)).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).description).toBe(
      'externalSourceSyncId: A product with this externalSourceSyncId already exists for this integration.',
    );
    await expect(
      refuseDuplicateSyncId('order_item', '42', (id) => Promise.resolve(id !== '42')),
    ).resolves.toBeUndefined();
  });
});

describe('duplicateInBatch', () => {
  const keyOf = (syncId: string) => `w1|shopify|${syncId}`;

  it('refuses a store id already written, and the second of a batch, as two POSTs would', async () => {
    const taken = new Set([keyOf('7')]);
    expect(await duplicateInBatch('order', '7', keyOf, taken)).toBeInstanceOf(ApiError);
    expect(await duplicateInBatch('order', '8', keyOf, taken)).toBeNull();
    const second = await duplicateInBatch('order', '8', keyOf, taken);
    expect((second as ApiError).status).toBe(400);
    expect((second as ApiError).description).toContain('An order with this externalSourceSyncId');
  });

  it('never refuses a record without a store id', async () => {
    const taken = new Set<string>();
    expect(await duplicateInBatch('order_item', null, keyOf, taken)).toBeNull();
    expect(await duplicateInBatch('order_item', null, keyOf, taken)).toBeNull();
    expect(taken.size).toBe(0);
  });
});
