import { appliedMigrations, runMigrationsLocked } from '../../database/migration-runner';
import { CliCommand, CliUsageError, parseOptions } from '../cli-command';

export const migrateCommand: CliCommand = {
  name: 'migrate',
  description: 'Run pending database migrations (or list them, or revert the last one)',
  usage: '[--list | --revert]',
  async run(args, context) {
    const values = parseOptions(args, { list: { type: 'boolean' }, revert: { type: 'boolean' } });
    if (values.list && values.revert) throw new CliUsageError('Use --list or --revert, not both.');
    const dataSource = await context.dataSource();

    if (values.list) {
      const applied = await appliedMigrations(dataSource);
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
