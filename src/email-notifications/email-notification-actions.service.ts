import { Injectable } from '@nestjs/common';
import { isEmail } from 'class-validator';
import { DataSource } from 'typeorm';
import type { Principal } from '../access/principal';
import { PermanentDeliveryError } from '../events/delivery-error';
import { NOTIFICATION_EVENTS } from '../events/event-types';
import { HydraApi } from '../hydra/controller/hydra-api';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { identifierFrom } from '../hydra/core/identifiers';
import { removeNotesOfDeleted } from '../notes/record-notes';
import { ShipmentNotificationStore } from '../shipments/shipment-notification-store';
import { Shipment } from '../shipments/shipment.entity';
import { WorkspaceNotificationStore } from '../workspaces/workspace-notification-store';
import { Workspace } from '../workspaces/workspace.entity';
import { DEFAULT_NOTIFICATIONS } from './default-notifications';
import { composeEmail } from './email-composer';
import type {
  NotificationPreviewInput,
  NotificationResetInput,
  NotificationSendTestInput,
} from './email-notification-actions.input';
import { EmailNotification } from './email-notification.entity';
import { EmailNotificationStore } from './email-notification-store';
import { unknownVariables } from './email-template';
import { NotificationMailer, WorkspaceSmtpError } from './notification-mailer';
import { NotificationValues } from './notification-values';
import { TestRecipients } from './test-recipients';

const DRAFT_MAX_LENGTH = { subject: 998, body: 100_000 } as const;

interface NotificationTemplate {
  id: string | null;
  workspaceId: string;
  event: string;
  subject: string | null;
  body: string | null;
  trackingPageId: string | null;
}

/** Preview, test send and reset of e-mail notifications (EmailNotificationActionsController). */
@Injectable()
export class EmailNotificationActions {
  constructor(
    private readonly api: HydraApi,
    private readonly dataSource: DataSource,
    private readonly values: NotificationValues,
    private readonly mailer: NotificationMailer,
    private readonly testRecipients: TestRecipients,
    private readonly store: EmailNotificationStore,
    private readonly workspaces: WorkspaceNotificationStore,
    private readonly shipments: ShipmentNotificationStore,
  ) {}

  async preview(principal: Principal, input: NotificationPreviewInput) {
    const { workspaceId: _workspace, ...mail } = await this.render(principal, input);
    return mail;
  }

  async sendTest(principal: Principal, input: NotificationSendTestInput) {
    const to = input.email ?? principal.email;
    if (!isEmail(to)) {
      throw ValidationError.of(
        'email',
        'This value is not a valid email address.',
        ViolationCodes.email,
      );
    }
    const { workspaceId, ...mail } = await this.render(principal, input);
    await this.testRecipients.check(principal, workspaceId, to);
    try {
      await this.mailer.send(workspaceId, {
        to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
      });
    } catch (error) {
      // A workspace's own server (or settings) is the caller's to fix: say what went wrong.
      // Secrets are already redacted; the global server's errors stay internal.
      const reason =
        error instanceof WorkspaceSmtpError || error instanceof PermanentDeliveryError
          ? ` ${error.message.replace(/^./, (c) => c.toUpperCase()).replace(/\.?\s*$/, '.')}`
          : '';
      throw new ApiError(502, `The test e-mail could not be handed to the mail server.${reason}`);
    }
    return { sent: true, to, subject: mail.subject };
  }

  async resetDefaults(principal: Principal, input: NotificationResetInput) {
    const field = input.id !== undefined && input.id !== null ? 'id' : 'workspace';
    const workspaceId = await this.visibleId(principal, Workspace, input[field], field);
    const ids = await this.dataSource.transaction(async (em) => {
      // Serialises concurrent resets of one workspace.
      await this.workspaces.lock(em, workspaceId);
      const gone = await this.store.deleteDefaults(em, workspaceId);
      // The replaced defaults go as DELETE /email_notifications/{id} would take them.
      await removeNotesOfDeleted(em, 'email_notifications', gone);
      const ids: string[] = [];
      for (const d of DEFAULT_NOTIFICATIONS)
        ids.push(await this.store.insertDefault(em, workspaceId, d));
      return ids;
    });
    const resource = this.api.resource(EmailNotification);
    const records = [];
    for (const id of ids) records.push(await this.api.data.get(resource, principal, id));
    return { workspace: `/workspaces/${workspaceId}`, emailNotifications: records };
  }

  private async render(principal: Principal, body: NotificationPreviewInput) {
    const template = await this.template(principal, body);
    let shipmentId: string | null = null;
    if (body.shipment !== undefined && body.shipment !== null) {
      shipmentId = await this.visibleId(principal, Shipment, body.shipment, 'shipment');
      if ((await this.shipments.workspaceOf(shipmentId)) !== template.workspaceId) {
        throw ValidationError.of(
          'shipment',
          'The shipment must belong to the workspace of the notification.',
          ViolationCodes.invalid,
        );
      }
    }
    const values = shipmentId
      ? (await this.values.forShipment(this.dataSource, shipmentId, template.trackingPageId, {
          event: template.event,
        }))!.values
      : this.values.sample(template.event, await this.workspaceTitle(template.workspaceId));
    return { ...composeEmail(template, values), workspaceId: template.workspaceId };
  }

  /** The stored notification `id`, or a draft from `workspace`, `event`, `subject`, `body`. */
  private async template(
    principal: Principal,
    body: NotificationPreviewInput,
  ): Promise<NotificationTemplate> {
    if (body.id !== undefined && body.id !== null) {
      const id = await this.visibleId(principal, EmailNotification, body.id, 'id');
      const row = await this.store.template(id);
      if (!row)
        throw ValidationError.of('id', `Item not found for "${body.id}".`, ViolationCodes.invalid);
      return {
        id,
        workspaceId: row.workspace_id,
        event: row.event,
        subject: row.subject,
        body: row.body,
        trackingPageId: row.tracking_page_id,
      };
    }
    const workspaceId = await this.visibleId(principal, Workspace, body.workspace, 'workspace');
    const event = body.event ?? 'shipment.status_changed';
    if (!NOTIFICATION_EVENTS.includes(event)) {
      throw ValidationError.of(
        'event',
        'The value you selected is not a valid choice.',
        ViolationCodes.choice,
      );
    }
    const texts: Record<'subject' | 'body', string | null> = { subject: null, body: null };
    for (const key of ['subject', 'body'] as const) {
      const v = body[key];
      if (v === undefined || v === null) continue;
      // The same bounds as a stored notification's (EmailNotification), before any parsing.
      const max = DRAFT_MAX_LENGTH[key];
      if (v.length > max) {
        throw ValidationError.of(
          key,
          `This value is too long. It should have ${max} characters or less.`,
          ViolationCodes.tooLong,
        );
      }
      const unknown = unknownVariables(v);
      if (unknown.length) {
        throw ValidationError.of(
          key,
          `Unknown template variable(s): ${unknown.join(', ')}.`,
          ViolationCodes.invalid,
        );
      }
      texts[key] = v;
    }
    return { id: null, workspaceId, event, ...texts, trackingPageId: null };
  }

  /** The id of a record of `target` the caller may see; 422 naming `field` otherwise. */
  private async visibleId(
    principal: Principal,
    target: Function,
    raw: string | null | undefined,
    field: string,
  ): Promise<string> {
    if (raw === undefined || raw === null || raw === '') {
      throw ValidationError.of(field, 'This value should not be blank.', ViolationCodes.notBlank);
    }
    const id = identifierFrom(raw);
    if (!id || !(await this.api.data.visible(this.api.resource(target), principal, id))) {
      throw ValidationError.of(field, `Item not found for "${raw}".`, ViolationCodes.invalid);
    }
    return id;
  }

  private async workspaceTitle(workspaceId: string): Promise<string> {
    return (await this.workspaces.title(workspaceId)) ?? '';
  }
}
