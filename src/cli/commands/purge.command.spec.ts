import type { CliContext } from '../cli-command';
import { CliUsageError } from '../cli-command';
import { RetentionSweeper } from '../../retention/retention-sweeper';
import { purgeCommand } from './purge.command';

describe('purge command', () => {
  const saved = { ...process.env };
  afterEach(() => {
    process.env = { ...saved };
  });

  function contextWith(sweep: jest.Mock) {
    const printed: string[] = [];
    const context = {
      app: async () => ({
        get: (token: unknown) => {
          expect(token).toBe(RetentionSweeper);
          return { sweep };
        },
      }),
      print: (line: string) => printed.push(line),
    } as unknown as CliContext;
    return { context, printed };
  }

  it.each([[[]], [['--dry-run']]])(
    '%j runs one sweep (waiting for a node’s) and prints it as JSON',
    async (args) => {
      const result = { dryRun: args.length > 0, ran: true, deleted: { widget_log: 2 }, files: 0 };
      const sweep = jest.fn().mockResolvedValue(result);
      const { context, printed } = contextWith(sweep);
      await expect(purgeCommand.run(args, context)).resolves.toBeUndefined();
      expect(sweep).toHaveBeenCalledWith({ dryRun: args.length > 0, wait: true });
      expect(printed.map((line) => JSON.parse(line))).toEqual([result]);
      // The process sweeps inline only: no periodic sweep or job workers of its own.
      expect(process.env.RETENTION_ENABLED).toBe('false');
      expect(process.env.JOB_WORKERS_ENABLED).toBe('false');
    },
  );

  it('refuses unknown options before touching the database', async () => {
    const sweep = jest.fn();
    const run = purgeCommand.run(['--older-than', '3'], contextWith(sweep).context);
    await expect(run).rejects.toBeInstanceOf(CliUsageError);
    await expect(run).rejects.toThrow(/Unknown option '--older-than'/);
    expect(sweep).not.toHaveBeenCalled();
  });
});
