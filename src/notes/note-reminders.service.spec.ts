import type { EntityManager } from 'typeorm';
import type { Principal } from '../access/principal';
import { ForbiddenError, ViolationCodes } from '../common/errors/api-errors';
import type { WriteContext } from '../hydra/core/resource-hooks';
import { NoteReminder } from './note-reminder.entity';
import type { NoteReminderStore, ReminderOwnerRow } from './note-reminder-store';
import type { NoteStore } from './note-store';
import {
  NoteRemindersService,
  type ReminderWriteState,
  remindAtInPast,
} from './note-reminders.service';

const NOW = Date.parse('2025-06-01T12:00:00Z');

describe('remindAtInPast', () => {
  it('refuses a new reminder due more than a minute ago', () => {
    expect(remindAtInPast(new Date(NOW - 59_000), undefined, NOW)).toEqual({
      moved: true,
      past: false,
    });
    expect(remindAtInPast(new Date(NOW - 61_000), undefined, NOW).past).toBe(true);
  });

  it('lets a PUT keep a time gone by, and re-arms a moved one', () => {
    const before = NOW - 3600_000;
    expect(remindAtInPast(new Date(before), before, NOW)).toEqual({ moved: false, past: false });
    expect(remindAtInPast(new Date(NOW + 60_000), before, NOW)).toEqual({
      moved: true,
      past: false,
    });
    expect(remindAtInPast(new Date(before - 1000), before, NOW).past).toBe(true);
  });
});

describe('NoteRemindersService', () => {
  const owners = new Map<string, ReminderOwnerRow>([['r-1', { user_id: 'u-1', team_id: 't-1' }]]);
  const service = new NoteRemindersService(
    { owner: async () => ({ workspace_id: 'ws-1', user_id: 'u-1', team_id: 't-1' }) } as Pick<
      NoteStore,
      'owner'
    > as NoteStore,
    { owner: async (_runner, id) => owners.get(id) } as Pick<
      NoteReminderStore,
      'owner'
    > as NoteReminderStore,
  );

  function put(userId: string, stored: Date, remindAt: Date, adminTeamIds: string[] = []) {
    const reminder = Object.assign(new NoteReminder(), {
      id: 'r-1',
      remindAt: stored,
      sentAt: new Date(stored),
      comment: 'call back',
    });
    const base = {
      principal: { userId, adminTeamIds } as unknown as Principal,
      operation: 'put' as const,
      resource: {} as WriteContext['resource'],
      em: {} as EntityManager,
      body: { remindAt: remindAt.toISOString() },
      nested: {},
    };
    const state = service.begin(reminder, { ...base, state: undefined });
    reminder.remindAt = remindAt;
    const ctx: WriteContext<ReminderWriteState> = { ...base, state };
    return { reminder, ctx };
  }

  it('re-arms a reminder its user moves, and clears the comment left out', async () => {
    const stored = new Date(Date.now() - 86400_000);
    const { reminder, ctx } = put('u-1', stored, new Date(Date.now() + 86400_000));
    await service.prepare(reminder, ctx);
    expect(service.validate(reminder, ctx)).toEqual([]);
    expect(reminder.sentAt).toBeNull();
    expect(reminder.comment).toBeNull();
  });

  it('keeps a sent reminder sent when its time stays', async () => {
    const stored = new Date(Date.now() - 86400_000);
    const { reminder, ctx } = put('u-1', stored, new Date(stored));
    await service.prepare(reminder, ctx);
    expect(service.validate(reminder, ctx)).toEqual([]);
    expect(reminder.sentAt).not.toBeNull();
  });

  it('refuses a move into the past', async () => {
    const stored = new Date(Date.now() + 86400_000);
    const { reminder, ctx } = put('u-1', stored, new Date(Date.now() - 86400_000));
    expect(service.validate(reminder, ctx)).toEqual([
      expect.objectContaining({
        propertyPath: 'remindAt',
        code: ViolationCodes.greaterThanOrEqual,
      }),
    ]);
  });

  it('lets only its user or an admin of its team change it', async () => {
    const at = new Date(Date.now() + 86400_000);
    const other = put('u-2', at, at);
    await expect(service.prepare(other.reminder, other.ctx)).rejects.toBeInstanceOf(ForbiddenError);
    const admin = put('u-2', at, at, ['t-1']);
    await expect(service.prepare(admin.reminder, admin.ctx)).resolves.toBeUndefined();
  });
});
