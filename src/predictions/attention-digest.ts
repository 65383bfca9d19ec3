import { Injectable, Logger, OnApplicationBootstrap, OnModuleDestroy } from '@nestjs/common';
import { SchedulerRegistry } from '@nestjs/schedule';
import { DataSource } from 'typeorm';
import { PeriodicTask } from '../common/periodic-task';
import { AppConfig } from '../config/app-config';
import { PREDICTION_EVENTS } from '../events/event-types';
import { OutboxStore, type EventSummary } from '../events/outbox-store';
import { NotificationsService } from '../notifications/notifications.service';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { Clock } from '../tracking/clock';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';
import { WorkspaceMemberStore } from '../workspaces/workspace-member-store';
import { digestMessage, digestPeriod } from './attention-digest-rules';
import { AttentionDigestStore } from './attention-digest-store';

/** How often a node looks for an hour to digest (the claim makes extra looks harmless). */
const INTERVAL_MS = 5 * 60_000;
/** Shipment IRIs a notification carries per event type. */
const SAMPLE = 10;
/** The in-app notification's tag. */
export const ATTENTION_DIGEST_TAG = 'shipments_attention';

/**
 * In-app notifications of the prediction and attention events: one per workspace and hour
 * with any, to everyone who sees the workspace (the team's owners and admins, and the members
 * given it), counting the parcels that started to need
 * attention (by reason) and the delivery estimates that moved, with the shipments concerned
 * in `data`. One a workspace-hour rather than one an event: a carrier outage makes hundreds of
 * parcels stall at once. Webhooks and e-mail notifications still get every event.
 */
@Injectable()
export class AttentionDigest implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AttentionDigest.name);
  private readonly periodic: PeriodicTask;

  constructor(
    private readonly db: DataSource,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly outbox: OutboxStore,
    private readonly digests: AttentionDigestStore,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly teams: TeamLookupStore,
    private readonly members: WorkspaceMemberStore,
    private readonly notifications: NotificationsService,
    scheduler: SchedulerRegistry,
  ) {
    this.periodic = new PeriodicTask('attention-digest', scheduler, this.logger);
  }

  onApplicationBootstrap(): void {
    if (this.config.jobWorkersEnabled) this.periodic.start(INTERVAL_MS, () => this.digest());
  }

  async onModuleDestroy(): Promise<void> {
    await this.periodic.stop();
  }

  /** Digests the last full hour (digestPeriod); answers how many workspaces were notified. */
  async digest(now: Date = this.clock.now()): Promise<number> {
    const period = digestPeriod(now);
    const summaries = await this.outbox.summarize(
      this.db,
      PREDICTION_EVENTS,
      period.start,
      period.end,
      SAMPLE,
    );
    const byWorkspace = new Map<string, EventSummary[]>();
    for (const s of summaries)
      byWorkspace.set(s.workspaceId, [...(byWorkspace.get(s.workspaceId) ?? []), s]);
    let notified = 0;
    for (const [workspaceId, events] of byWorkspace) {
      const sent = await this.db.transaction(async (em) => {
        if (!(await this.digests.claim(em, workspaceId, period.start))) return false;
        const workspace = await this.workspaces.summary(em, workspaceId);
        const counts = new Map(events.map((e) => [e.type, e.count]));
        const message = workspace ? digestMessage(workspace.title, period, counts) : null;
        if (!workspace || !message) return false;
        const data = [...new Set(events.flatMap((e) => e.aggregateIds))].map(
          (id) => `/shipments/${id}`,
        );
        const readers = new Set([
          ...(await this.teams.adminIds(em, workspace.teamId)),
          ...(await this.members.userIds(em, workspaceId)),
        ]);
        for (const userId of readers)
          await this.notifications.notify({ userId, tag: ATTENTION_DIGEST_TAG, message, data }, em);
        return true;
      });
      if (sent) notified += 1;
    }
    await this.digests.prune(this.db, now);
    if (notified > 0) this.logger.log(`attention digest: ${notified} workspace(s) notified`);
    return notified;
  }
}
