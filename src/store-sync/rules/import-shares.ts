/**
 * A page's orders in shares of one transaction each (StoreOrderImporter.importMany): as many
 * shares as run at once (`concurrency`, the page spread over them), more when a share would
 * hold over `perTransaction` orders; in the page's order, sizes differing by one at most.
 */
export function importShares<T>(
  orders: readonly T[],
  concurrency: number,
  perTransaction: number,
): T[][] {
  if (orders.length === 0) return [];
  const shares = Math.max(
    Math.min(concurrency, orders.length),
    Math.ceil(orders.length / perTransaction),
  );
  const out: T[][] = [];
  let start = 0;
  for (let i = 0; i < shares; i++) {
    const size = Math.floor(orders.length / shares) + (i < orders.length % shares ? 1 : 0);
    out.push(orders.slice(start, start + size));
    start += size;
  }
  return out;
}
