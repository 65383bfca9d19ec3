import { predictionTools } from '../../predictions/prediction-tools';
import { CliCommand, CliUsageError, idOption, parseOptions } from '../cli-command';
import { workspaceTeam } from './workspace-team';

export const backtestPredictionsCommand: CliCommand = {
  name: 'backtest-predictions',
  description:
    "Replay a workspace's delivered parcels and print per carrier the delivery window's coverage and the error of its likely day, against the carrier's date",
  usage: '--workspace <uuid> [--since YYYY-MM-DD]',
  async run(args, context) {
    const values = parseOptions(args, {
      workspace: { type: 'string' },
      since: { type: 'string' },
    });
    const workspace = idOption(values.workspace, '--workspace must be a workspace id');
    let since: Date | null = null;
    if (values.since !== undefined) {
      since = new Date(`${values.since}T00:00:00Z`);
      if (!/^\d{4}-\d{2}-\d{2}$/.test(values.since) || Number.isNaN(since.getTime()))
        throw new CliUsageError(`--since must be a date (YYYY-MM-DD), got "${values.since}"`);
    }
    const tools = predictionTools(await context.dataSource());
    const teamId = await workspaceTeam(tools, workspace);
    context.print(await tools.backtest(teamId, workspace, since));
  },
};
