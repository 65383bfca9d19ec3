import { ApiError } from '../common/errors/api-errors';
import { refuseDuplicateSyncId } from './external-sync-id';

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
