import type { EntityManager } from 'typeorm';
import { Principal, canWriteWorkspace } from '../access/principal';
import { ForbiddenError, NotFoundError } from '../common/errors/api-errors';

export interface NoteOwner {
  workspaceId: string;
  userId: string | null;
  teamId: string;
}

/** The note's workspace, author and team; 404 when it is gone. */
export async function noteOwner(em: EntityManager, noteId: string): Promise<NoteOwner> {
  const rows = await em.query(
    `SELECT n.workspace_id, n.user_id, w.team_id FROM note n JOIN workspace w ON w.id = n.workspace_id WHERE n.id = $1`,
    [noteId],
  );
  if (rows.length === 0) throw new NotFoundError();
  return { workspaceId: rows[0].workspace_id, userId: rows[0].user_id, teamId: rows[0].team_id };
}

/**
 * Changing a note (its text, files, or removing it) is for its author and the admins of its
 * team; other members of the workspace read it. The spec is silent; shared notes anyone could
 * rewrite would not be notes.
 */
export function assertMayChange(
  principal: Principal,
  owner: NoteOwner,
  authorId?: string | null,
): void {
  if (!canWriteWorkspace(principal, owner.workspaceId))
    throw new ForbiddenError('Read-only access to this workspace.');
  const author = authorId === undefined ? owner.userId : authorId;
  if (author === principal.userId) return;
  if (principal.adminTeamIds.includes(owner.teamId)) return;
  throw new ForbiddenError('Only the author of the note or a team admin may change it.');
}
