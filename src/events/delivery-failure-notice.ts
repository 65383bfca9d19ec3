import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { MAILER, type Mailer } from '../mail/mailer';
import { NotificationsService } from '../notifications/notifications.service';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { WorkflowStore } from '../workflows/workflow-store';
import { WorkspaceLookupStore } from '../workspaces/workspace-lookup-store';

/** A webhook delivery given up, as its notice names it. */
export interface GivenUpDelivery {
  workflow_id: string | null;
  outbox_event_id: string;
  attempts: number;
}

/**
 * Tells of a webhook delivery given up: the team's owners and admins in-app, and the
 * workflow's notificationEmails by mail.
 */
@Injectable()
export class DeliveryFailureNotice {
  constructor(
    private readonly dataSource: DataSource,
    private readonly workflows: WorkflowStore,
    private readonly workspaces: WorkspaceLookupStore,
    private readonly teams: TeamLookupStore,
    private readonly notifications: NotificationsService,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  async report(delivery: GivenUpDelivery, error: string): Promise<void> {
    if (!delivery.workflow_id) return;
    const workflow = await this.workflows.failureNotice(this.dataSource, delivery.workflow_id);
    const workspace = workflow
      ? await this.workspaces.summary(this.dataSource, workflow.workspaceId)
      : null;
    if (!workflow || !workspace) return;
    const title = workflow.title ?? 'webhook';
    const message =
      `Workflow "${title}" of ${workspace.title} could not deliver event ` +
      `${delivery.outbox_event_id} after ${delivery.attempts} attempt(s): ${error}`;
    for (const userId of await this.teams.adminIds(this.dataSource, workspace.teamId)) {
      await this.notifications.notify({
        userId,
        tag: 'workflow_failed',
        message,
        data: [`/workflows/${delivery.workflow_id}`],
      });
    }
    for (const to of workflow.notificationEmails) {
      await this.mailer.send({
        to,
        subject: `Workflow "${title}" failed`,
        text: `${message}\n\nRuns: /workflows/${delivery.workflow_id}/runs`,
      });
    }
  }
}
