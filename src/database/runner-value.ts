/**
 * A value a write hands down to the writes nested in it on the same transaction (the orders
 * whose refresh waits, the records an enclosing write announces, what a share leaves to its
 * end): the same runner (its transaction, connection and repositories) carrying the value
 * under a key of its own, found by `of` on that runner and any derived from it. The value is
 * the write's own state, passed down explicitly: nothing outside the work sees it, and
 * nothing is left to clean up when it ends.
 */
export class RunnerValue<T> {
  private readonly key: symbol;

  constructor(description: string) {
    this.key = Symbol(description);
  }

  /** `runner` with the value added; the runner itself is unchanged. */
  on<E extends object>(runner: E, value: T): E {
    return Object.create(runner, { [this.key]: { value } }) as E;
  }

  /** The value the runner carries, if any. */
  of(runner: object): T | undefined {
    return (runner as { readonly [key: symbol]: T | undefined })[this.key];
  }
}
