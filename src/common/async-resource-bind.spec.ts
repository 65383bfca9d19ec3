import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import { installCheapAsyncResourceBind } from './async-resource-bind';

describe('installCheapAsyncResourceBind', () => {
  beforeAll(() => installCheapAsyncResourceBind());

  it('runs the bound function in the async context where it was bound', async () => {
    const storage = new AsyncLocalStorage<string>();
    const bound = storage.run('bound here', () => AsyncResource.bind(() => storage.getStore()));
    expect(storage.run('caller', () => bound())).toBe('bound here');
    expect(await new Promise((resolve) => setImmediate(() => resolve(bound())))).toBe('bound here');
  });

  it("passes the arguments and the caller's this, or the given thisArg", () => {
    const target = { n: 2 };
    function add(this: unknown, a: number, b: number) {
      return (this as { n: number }).n + a + b;
    }
    const bound = AsyncResource.bind(add);
    expect(bound.call(target, 3, 4)).toBe(9);
    expect(AsyncResource.bind(add, 'add', { n: 10 }).call(undefined, 1, 1)).toBe(12);
  });

  it('is installed once', () => {
    const installed = AsyncResource.bind;
    installCheapAsyncResourceBind();
    expect(AsyncResource.bind).toBe(installed);
  });
});
