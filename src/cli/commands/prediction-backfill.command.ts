import { predictionTools } from '../../predictions/prediction-tools';
import { CliCommand, CliUsageError, idOption, parseOptions } from '../cli-command';
import { workspaceTeam } from './workspace-team';

export const predictionBackfillCommand: CliCommand = {
  name: 'prediction-backfill',
  description:
    "Show the background backfill of prediction aggregates (teams whose shipments predate predictions), one JSON line a team; --queue --workspace W queues that workspace's team (again)",
  usage: '[--queue --workspace <uuid>]',
  async run(args, context) {
    const values = parseOptions(args, {
      queue: { type: 'boolean' },
      workspace: { type: 'string' },
    });
    const tools = predictionTools(await context.dataSource());
    if (values.queue) {
      const workspace = idOption(
        values.workspace,
        '--queue needs --workspace <uuid> (its team is queued)',
      );
      const teamId = await workspaceTeam(tools, workspace);
      await tools.queueBackfill(teamId);
    } else if (values.workspace) {
      throw new CliUsageError('--workspace is only for --queue');
    }
    for (const row of await tools.backfills()) context.print(JSON.stringify(row));
  },
};
