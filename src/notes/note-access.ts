import { Principal, canWriteWorkspace } from '../access/principal';
import { ForbiddenError, NotFoundError } from '../common/errors/api-errors';
import type { SqlRunner } from '../database/query';
import type { NoteStore } from './note-store';

export interface NoteOwner {
  workspaceId: string;
  userId: string | null;
  teamId: string;
}

/** The note's workspace, author and team; 404 when it is gone. */
export async function noteOwner(
  store: Pick<NoteStore, 'owner'>,
  em: SqlRunner,
  noteId: string,
): Promise<NoteOwner> {
  const row = await store.owner(em, noteId);
  if (!row) throw new NotFoundError();
  return { workspaceId: row.workspace_id, userId: row.user_id, teamId: row.team_id };
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
