import { Injectable } from '@nestjs/common';
import {
  ForbiddenError,
  Violation,
  ViolationCodes,
  NotFoundError,
} from '../common/errors/api-errors';
import type { ResourceHooks, WriteContext } from '../hydra/core/resource-hooks';
import { User } from '../users/user.entity';
import { Workspace } from '../workspaces/workspace.entity';
import { noteOwner } from './note-access';
import { NoteReminder } from './note-reminder.entity';
import { NoteReminderStore } from './note-reminder-store';
import { NoteStore } from './note-store';

/** A minute of slack for clients whose clock runs a little behind. */
const PAST_TOLERANCE_MS = 60_000;

/** What a write of a reminder knows of the stored one. */
export interface ReminderWriteState {
  /** When the stored reminder was due (ms), before a PUT; undefined on POST and DELETE. */
  previousRemindAt?: number;
}

/**
 * Whether a reminder set or moved to `remindAt` is in the past (beyond the tolerance): a new
 * one, or a PUT that moves it, must be due in the future; a PUT that keeps the time may stay.
 */
export function remindAtInPast(
  remindAt: Date | null | undefined,
  previous: number | undefined,
  now: number,
): { moved: boolean; past: boolean } {
  const at = remindAt instanceof Date ? remindAt.getTime() : NaN;
  const moved = previous === undefined || at !== previous;
  return { moved, past: moved && at < now - PAST_TOLERANCE_MS };
}

/**
 * Reminder rules: the reminder belongs to the note's workspace and to the caller; it is set
 * in the future; only its user or a team admin changes it; moving it re-arms it.
 */
@Injectable()
export class NoteRemindersService implements ResourceHooks<NoteReminder, ReminderWriteState> {
  constructor(
    private readonly notes: NoteStore,
    private readonly reminders: NoteReminderStore,
  ) {}

  /** On PUT the reminder is still the stored one: its due time is the one to compare with. */
  begin(reminder: NoteReminder, ctx: WriteContext<undefined>): ReminderWriteState {
    if (ctx.operation !== 'put') return {};
    return { previousRemindAt: new Date(reminder.remindAt).getTime() };
  }

  async prepare(reminder: NoteReminder, ctx: WriteContext<ReminderWriteState>): Promise<void> {
    if (ctx.operation === 'post') {
      reminder.user = { id: ctx.principal.userId } as User;
      if (reminder.note?.id) {
        const owner = await noteOwner(this.notes, ctx.em, reminder.note.id);
        reminder.workspace = { id: owner.workspaceId } as Workspace;
      }
      return;
    }
    await this.assertMayChange(reminder, ctx);
    if (!('comment' in ctx.body)) reminder.comment = null;
  }

  validate(reminder: NoteReminder, ctx: WriteContext<ReminderWriteState>): Violation[] {
    const { moved, past } = remindAtInPast(
      reminder.remindAt,
      ctx.operation === 'post' ? undefined : ctx.state.previousRemindAt,
      Date.now(),
    );
    if (past)
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

  async beforeRemove(reminder: NoteReminder, ctx: WriteContext<ReminderWriteState>): Promise<void> {
    await this.assertMayChange(reminder, ctx);
  }

  private async assertMayChange(reminder: NoteReminder, ctx: WriteContext): Promise<void> {
    const owner = await this.reminders.owner(ctx.em, reminder.id);
    if (!owner) throw new NotFoundError();
    if (owner.user_id === ctx.principal.userId) return;
    if (ctx.principal.adminTeamIds.includes(owner.team_id)) return;
    throw new ForbiddenError('Only the reminded user or a team admin may change this reminder.');
  }
}
