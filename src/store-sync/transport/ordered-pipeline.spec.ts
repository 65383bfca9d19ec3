import { OrderedPipeline } from './ordered-pipeline';

/** A task that ends when told to, and records its start. */
function deferred(log: string[], name: string) {
  let finish!: () => void;
  let fail!: (e: Error) => void;
  const done = new Promise<void>((resolve, reject) => {
    finish = resolve;
    fail = reject;
  });
  return {
    task: () => {
      log.push(`start ${name}`);
      return done;
    },
    then: () => {
      log.push(`then ${name}`);
      return Promise.resolve();
    },
    finish,
    fail,
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('OrderedPipeline', () => {
  it('runs at most `limit` tasks, and starts the next one when the oldest settles', async () => {
    const log: string[] = [];
    const pipeline = new OrderedPipeline(2);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => deferred(log, n));
    await pipeline.start(a.task, a.then);
    await pipeline.start(b.task, b.then);
    const third = pipeline.start(c.task, c.then);
    await tick();
    expect(log).toEqual(['start a', 'start b']);
    a.finish();
    await third;
    expect(log).toEqual(['start a', 'start b', 'then a', 'start c']);
    c.finish();
    b.finish();
    await pipeline.drain();
    expect(log).toEqual(['start a', 'start b', 'then a', 'start c', 'then b', 'then c']);
  });

  it("runs the `then` steps in the tasks' order even when a later task ends first", async () => {
    const log: string[] = [];
    const pipeline = new OrderedPipeline(3);
    const tasks = ['a', 'b', 'c'].map((n) => deferred(log, n));
    for (const t of tasks) await pipeline.start(t.task, t.then);
    tasks[2].finish();
    tasks[1].finish();
    await tick();
    expect(log.filter((l) => l.startsWith('then'))).toEqual([]);
    tasks[0].finish();
    await pipeline.drain();
    expect(log.filter((l) => l.startsWith('then'))).toEqual(['then a', 'then b', 'then c']);
  });

  it('on a failure waits for the tasks still running, runs no later `then`, and rethrows', async () => {
    const log: string[] = [];
    const pipeline = new OrderedPipeline(3);
    const [a, b, c] = ['a', 'b', 'c'].map((n) => deferred(log, n));
    for (const t of [a, b, c]) await pipeline.start(t.task, t.then);
    a.finish();
    b.fail(new Error('b refused'));
    let settled = false;
    const drained = pipeline.drain().finally(() => (settled = true));
    await tick();
    // c is still running: the drain has not given up on it.
    expect(settled).toBe(false);
    c.finish();
    await expect(drained).rejects.toThrow('b refused');
    expect(log).toEqual(['start a', 'start b', 'start c', 'then a']);
    // Nothing is left to settle.
    await expect(pipeline.drain()).resolves.toBeUndefined();
  });

  it('stops at a failing `then` as at a failing task', async () => {
    const log: string[] = [];
    const pipeline = new OrderedPipeline(2);
    const a = deferred(log, 'a');
    const b = deferred(log, 'b');
    await pipeline.start(a.task, () => Promise.reject(new Error('lease lost')));
    await pipeline.start(b.task, b.then);
    a.finish();
    b.finish();
    await expect(pipeline.drain()).rejects.toThrow('lease lost');
    expect(log).toEqual(['start a', 'start b']);
  });
});
