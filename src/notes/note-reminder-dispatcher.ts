import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { PeriodicTask } from '../common/periodic-task';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { NotificationsService } from '../notifications/notifications.service';
import { NoteReminderStore } from './note-reminder-store';

const INTERVAL_NAME = 'note-reminders';
const BATCH = 200;

/**
 * Delivers due note reminders as in-app notifications to the reminded user. Every node runs
 * it: due reminders are claimed with FOR UPDATE SKIP LOCKED and marked `sentAt` in the same
 * transaction as their notification, so each is delivered exactly once. A user who no longer
 * sees the note's workspace (removed from it or from the team, or the note moved with its
 * workflow to a workspace they are not given) gets nothing: the reminder is spent unsent.
 */
@Injectable()
export class NoteReminderDispatcher implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('NoteReminderDispatcher');
  private periodicTask?: PeriodicTask;

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
    private readonly scheduler: SchedulerRegistry,
    private readonly notifications: NotificationsService,
    private readonly store: NoteReminderStore,
  ) {}

  private get periodic(): PeriodicTask {
    return (this.periodicTask ??= new PeriodicTask(INTERVAL_NAME, this.scheduler, this.logger));
  }

  onApplicationBootstrap(): void {
    this.periodic.start(this.config.noteReminderIntervalSeconds * 1000, () => this.dispatch());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.periodic.stop();
  }

  /** Sends every reminder due by `now`, in batches; returns how many were sent. */
  async dispatch(now = new Date()): Promise<number> {
    let sent = 0;
    for (;;) {
      const n = await this.dataSource.transaction(async (em) => {
        const due = await this.store.claimDue(em, now, BATCH);
        const unseen = due.filter((r) => !r.visible).length;
        if (unseen > 0)
          this.logger.log(`${unseen} due note reminder(s) dropped: their user lost the workspace`);
        for (const r of due.filter((d) => d.visible))
          await this.notifications.notify(
            {
              userId: r.user_id,
              tag: 'note_reminder',
              message:
                r.comment?.trim() || `Reminder about a note on ${r.entity.replace(/_/g, ' ')}`,
              data: [`/notes/${r.note_id}`, `/note_reminders/${r.id}`],
            },
            em,
          );
        return due.length;
      });
      sent += n;
      if (n < BATCH) return sent;
    }
  }
}
