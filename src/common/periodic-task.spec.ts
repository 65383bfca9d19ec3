import { Logger } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { PeriodicTask } from './periodic-task';

describe('PeriodicTask', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('never overlaps itself, survives a failed run and waits for the run in progress on stop', async () => {
    const scheduler = new SchedulerRegistry();
    const logger = new Logger('test');
    const logged = jest.spyOn(logger, 'error').mockImplementation(() => undefined);
    const task = new PeriodicTask('test-task', scheduler, logger);
    let runs = 0;
    let finish: () => void = () => undefined;
    task.start(1000, () => {
      runs++;
      if (runs === 1) return Promise.reject(new Error('boom'));
      return new Promise<void>((resolve) => (finish = resolve));
    });
    expect(scheduler.doesExist('interval', 'test-task')).toBe(true);
    await jest.advanceTimersByTimeAsync(1000);
    expect(logged).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(1000); // second run starts and hangs
    await jest.advanceTimersByTimeAsync(3000); // ticks while it runs are skipped
    expect(runs).toBe(2);
    let stopped = false;
    const stopping = task.stop().then(() => (stopped = true));
    await jest.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(scheduler.doesExist('interval', 'test-task')).toBe(false);
  });

  it('does nothing for a non-positive interval', async () => {
    const scheduler = new SchedulerRegistry();
    new PeriodicTask('off', scheduler, new Logger('test')).start(0, async () => undefined);
    expect(scheduler.doesExist('interval', 'off')).toBe(false);
  });
});
