import type { CliContext } from '../cli-command';
import { CliUsageError } from '../cli-command';
import { seedCommand } from './seed.command';

describe('seed command arguments', () => {
  const context = {
    dataSource: () => Promise.reject(new Error('bad arguments must not reach the database')),
  } as unknown as CliContext;

  it.each([
    [['--shipments', '1e6'], /--shipments must be a whole number/],
    [['--orders=-5'], /--orders must be a whole number/],
    [['--indexes', 'sometimes'], /--indexes must be auto, rebuild or keep/],
    [['--workspace', 'nope'], /--workspace must be a workspace id/],
    [['--colour', 'red'], /Unknown option '--colour'/],
  ])('%j is a usage error', async (args, message) => {
    const run = seedCommand.run(args, context);
    await expect(run).rejects.toBeInstanceOf(CliUsageError);
    await expect(run).rejects.toThrow(message);
  });
});
