import { predictionTools } from '../../predictions/prediction-tools';
import { CliCommand, idOption, parseOptions } from '../cli-command';
import { workspaceTeam } from './workspace-team';

export const rebuildPredictionsCommand: CliCommand = {
  name: 'rebuild-predictions',
  description:
    "Recompute a team's delivery statistics and carrier analytics from its shipments (after a bulk load, or to fill them for shipments tracked before predictions existed)",
  usage: '--workspace <uuid>',
  async run(args, context) {
    const values = parseOptions(args, { workspace: { type: 'string' } });
    const workspace = idOption(
      values.workspace,
      '--workspace must be a workspace id (its team is rebuilt)',
    );
    const tools = predictionTools(await context.dataSource());
    const teamId = await workspaceTeam(tools, workspace);
    const changed = await tools.rebuild(teamId);
    context.print(JSON.stringify({ team_id: teamId, contributions_changed: changed }));
  },
};
