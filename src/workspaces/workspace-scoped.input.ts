import { fromInput } from '../access/access-target';
import { Typed } from '../hydra/validation/input-types';
import { Workspace } from './workspace.entity';

/**
 * The workspace an action is limited to: `workspaceId` (the reference's name) or `workspace`,
 * an id or IRI of one of the caller's workspaces. Left out: every workspace the caller sees.
 */
export class WorkspaceScopedInput {
  /** Id or IRI of one of the caller's workspaces. */
  @Typed('string') workspaceId?: string | null;
  /** Same as `workspaceId`. */
  @Typed('string') workspace?: string | null;
}

/**
 * The locator of a `WorkspaceScopedInput`: the workspace it names (404 when the caller does
 * not see it), or none; the handler reads the resolved id as `context.workspaceId` (an
 * `ActionContext<'workspace?'>`).
 */
export const scopedWorkspace = fromInput(Workspace, 'workspaceId', 'workspace');
