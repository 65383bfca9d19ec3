import { AsyncResource } from 'node:async_hooks';

/**
 * A cheaper `AsyncResource.bind`, with the same behaviour: the function runs in the async
 * context of the place it was bound (its AsyncLocalStorage stores), with the caller's `this`
 * unless one is given.
 *
 * Why: Nest's interceptor chain binds two functions per request
 * (`@nestjs/core/interceptors/interceptors-consumer.js`), and Node 20's `bind` defines the
 * deprecated `asyncResource` accessor on every bound function through `util.deprecate`, which
 * costs 6-15 µs per call on this machine (100 times the binding itself): 30-45 µs of a small
 * request (bench/README.md, "Declared actions and passport"). The deprecated accessor is the
 * only thing left out.
 */
export function installCheapAsyncResourceBind(): void {
  if ((AsyncResource.bind as { cheap?: boolean }).cheap) return;
  const bind = function bind<F extends (...args: any[]) => unknown>(
    fn: F,
    type?: string,
    thisArg?: unknown,
  ): F {
    const resource = new AsyncResource(type || fn.name || 'bound-anonymous-fn');
    return function (this: unknown, ...args: unknown[]) {
      return resource.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args);
    } as F;
  };
  AsyncResource.bind = Object.assign(bind, { cheap: true }) as typeof AsyncResource.bind;
}
