import { Injectable } from '@nestjs/common';
import { ForbiddenError, Violation, ViolationCodes } from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { noteOwner } from './note-access';
import { NoteReminder } from './note-reminder.entity';

/** A minute of slack for clients whose clock runs a little behind. */
const PAST_TOLERANCE_MS = 60_000;

/**
 * Reminder rules: the reminder belongs to the note's workspace and to the caller; it is set
 * in the future; only its user or a team admin changes it; moving it re-arms it.
 */
@Injectable()
export class NoteRemindersService implements ResourceHooks<NoteReminder> {
  private readonly previous = new WeakMap<NoteReminder, number>();

  async prepare(reminder: NoteReminder, ctx: WriteContext): Promise<void> {
    if (ctx.operation === 'post') {
      reminder.user = { id: ctx.principal.userId } as User;
      if (reminder.note?.id) {
        const owner = await noteOwner(ctx.em, reminder.note.id);
        reminder.workspace = { id: owner.workspaceId } as Workspace;
      }
      return;
    }
    const [row] = await ctx.em.query(
      `SELECT r.user_id, r.remind_at, w.team_id FROM note_reminder r JOIN workspace w ON w.id = r.workspace_id WHERE r.id = $1`,
      [reminder.id],
    );
    this.assertMayChange(ctx, row.user_id, row.team_id);
    if (!('comment' in ctx.body)) reminder.comment = null;
    this.previous.set(reminder, new Date(row.remind_at).getTime());
  }

  validate(reminder: NoteReminder, ctx: WriteContext): Violation[] {
    const at = reminder.remindAt instanceof Date ? reminder.remindAt.getTime() : NaN;
    const moved = ctx.operation === 'post' || at !== this.previous.get(reminder);
    if (moved && at < Date.now() - PAST_TOLERANCE_MS)
      return [
        {
          propertyPath: 'remindAt',
          message: 'This value should be in the future.',
          code: ViolationCodes.greaterThanOrEqual,
        },
      ];
    if (moved && ctx.operation === 'put') reminder.sentAt = null;
    return [];
  }

  async beforeRemove(reminder: NoteReminder, ctx: WriteContext): Promise<void> {
    const [row] = await ctx.em.query(
      `SELECT r.user_id, w.team_id FROM note_reminder r JOIN workspace w ON w.id = r.workspace_id WHERE r.id = $1`,
      [reminder.id],
    );
    this.assertMayChange(ctx, row.user_id, row.team_id);
  }

  private assertMayChange(ctx: WriteContext, userId: string, teamId: string): void {
    if (userId === ctx.principal.userId || ctx.principal.adminTeamIds.includes(teamId)) return;
    throw new ForbiddenError('Only the reminded user or a team admin may change this reminder.');
  }
}
