interface Running {
  done: Promise<void>;
  then: () => Promise<void>;
}

/**
 * Tasks started one after another, at most `limit` running at once, whose `then` steps run in
 * the order the tasks started, each once its task and every task before it succeeded: a pull's
 * shares import side by side while its cursor moves only past a prefix of orders all imported.
 * A new task starts as soon as the oldest settles, not when a whole group does (two shares
 * awaited together left a core idle while the slower one finished).
 */
export class OrderedPipeline {
  private readonly running: Running[] = [];

  constructor(private readonly limit: number) {}

  /** Starts `task`, first settling the oldest while `limit` run; `then` runs after it, in order. */
  async start(task: () => Promise<void>, then: () => Promise<void>): Promise<void> {
    if (this.running.length >= this.limit) await this.settleOldest();
    const done = task();
    // Awaited in settleOldest; a rejection before then is not unhandled.
    done.catch(() => undefined);
    this.running.push({ done, then });
  }

  /** Settles every task, oldest first. */
  async drain(): Promise<void> {
    while (this.running.length > 0) await this.settleOldest();
  }

  /**
   * The oldest task awaited, then its `then`. On a failure of either, the later tasks are waited
   * for (nothing keeps writing once the caller has moved on) and their `then` never runs.
   */
  private async settleOldest(): Promise<void> {
    const { done, then } = this.running.shift()!;
    try {
      await done;
      await then();
    } catch (error) {
      await Promise.allSettled(this.running.splice(0).map((r) => r.done));
      throw error;
    }
  }
}
