import type { StoreClient, StoreOrder, StorePageToken } from '../../src/store-sync/store-platform';

/** Every order a store client lists as changed since `since`, page after page. */
export async function readAllChanged(
  client: Pick<StoreClient, 'listChangedOrders'>,
  since: Date,
): Promise<{ orders: StoreOrder[]; pages: number }> {
  const orders: StoreOrder[] = [];
  let page: StorePageToken | null = null;
  let pages = 0;
  do {
    const answer = await client.listChangedOrders({ since, page });
    orders.push(...answer.orders);
    page = answer.next;
    pages++;
  } while (page);
  return { orders, pages };
}
