import type { predictionTools } from '../../predictions/prediction-tools';
import { CliUsageError } from '../cli-command';

/** The team of the workspace an option named (the predictions' unit); a usage error if none. */
export async function workspaceTeam(
  tools: Pick<ReturnType<typeof predictionTools>, 'teamOf'>,
  workspace: string,
): Promise<string> {
  const teamId = await tools.teamOf(workspace);
  if (!teamId) throw new CliUsageError(`No workspace ${workspace}`);
  return teamId;
}
