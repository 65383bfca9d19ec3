import { CliCommand, parseOptions } from '../cli-command';

export const purgeCommand: CliCommand = {
  name: 'purge',
  description:
    'Delete finished records older than their RETENTION_DAYS_* now (one retention sweep); prints counts as JSON',
  usage: '[--dry-run]',
  async run(args, context) {
    const values = parseOptions(args, { 'dry-run': { type: 'boolean' } });
    // This process sweeps once, inline: no periodic work of its own.
    Object.assign(process.env, {
      RETENTION_ENABLED: 'false',
      JOB_WORKERS_ENABLED: 'false',
      TRACKING_REFRESH_ENABLED: 'false',
      EVENT_DELIVERY_ENABLED: 'false',
      WORKSPACE_DELETE_INTERVAL_SECONDS: '0',
      NOTE_REMINDER_INTERVAL_SECONDS: '0',
    });
    const { RetentionSweeper } = await import('../../retention/retention-sweeper');
    const sweeper = (await context.app()).get(RetentionSweeper);
    // A sweep running on a node is waited for, then this one runs.
    const result = await sweeper.sweep({ dryRun: values['dry-run'] ?? false, wait: true });
    context.print(JSON.stringify(result));
  },
};
