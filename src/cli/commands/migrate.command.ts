import { parseArgs } from 'util';
import { runMigrationsLocked } from '../../database/migration-runner';
import { CliCommand, CliUsageError } from '../cli-command';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  description: 'Run pending database migrations (or list them, or revert the last one)',
  usage: '[--list | --revert]',
  async run(args, context) {
    let values: { list?: boolean; revert?: boolean };
    try {
      ({ values } = parseArgs({
        args,
        options: { list: { type: 'boolean' }, revert: { type: 'boolean' } },
      }));
    } catch (error) {
      throw new CliUsageError((error as Error).message);
    }
    if (values.list && values.revert) throw new CliUsageError('Use --list or --revert, not both.');
    const dataSource = await context.dataSource();

    if (values.list) {
      const applied = new Set(
        (await dataSource.query(`SELECT name FROM migrations`).catch(() => [])).map(
          (r: { name: string }) => r.name,
        ),
      );
      for (const migration of dataSource.migrations) {
        const name = migration.name ?? migration.constructor.name;
        context.print(`${applied.has(name) ? '[x]' : '[ ]'} ${name}`);
      }
      return;
    }
    if (values.revert) {
      await dataSource.undoLastMigration({ transaction: 'each' });
      context.print('Reverted the last migration.');
      return;
    }
    const executed = await runMigrationsLocked(dataSource);
    if (executed.length === 0) context.print('No pending migrations.');
    for (const migration of executed) context.print(`Executed ${migration.name}`);
  },
};
