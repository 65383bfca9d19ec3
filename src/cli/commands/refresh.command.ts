import { CliCommand, CliUsageError, parseOptions } from '../cli-command';

export const refreshCommand: CliCommand = {
  name: 'refresh',
  description: 'Refresh the tracking of due shipments now (one round, or until none is due)',
  usage: '[--limit <n>] [--all]',
  async run(args, context) {
    const values = parseOptions(args, { limit: { type: 'string' }, all: { type: 'boolean' } });
    const limit = values.limit === undefined ? undefined : Number(values.limit);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100000)) {
      throw new CliUsageError('--limit must be an integer from 1 to 100000.');
    }
    // This process refreshes inline: it must not also take jobs or run the periodic tick.
    process.env.JOB_WORKERS_ENABLED = 'false';
    process.env.TRACKING_REFRESH_ENABLED = 'false';
    const { TrackingRefresher } = await import('../../tracking/refresh/tracking-refresher');
    const refresher = (await context.app()).get(TrackingRefresher);
    const started = Date.now();
    const round = values.all
      ? await refresher.runUntilIdle(limit)
      : await refresher.runBatch(limit);
    const seconds = (Date.now() - started) / 1000;
    context.print(
      `claimed ${round.claimed}, refreshed ${round.refreshed}, failed ${round.failed}, ` +
        `status changes ${round.statusChanges} in ${seconds.toFixed(1)} s`,
    );
    return round.failed > 0 ? 1 : 0;
  },
};
