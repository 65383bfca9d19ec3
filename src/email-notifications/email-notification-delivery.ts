import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventTypes } from '../events/event-types';
import { composeEmail } from './email-composer';
import { EmailNotificationStore } from './email-notification-store';
import { conditionHolds } from './notification-condition';
import { NotificationMailer } from './notification-mailer';
import { allRecipients, notificationMessage, notificationRecipients } from './notification-message';
import { NotificationValues } from './notification-values';

export interface DeliverableEvent {
  id: string;
  type: string;
  aggregateType: string;
  aggregateId: string;
  payload: Record<string, unknown>;
}

export interface EmailOutcome {
  sent: boolean;
  /** Recipients written to, or why nothing was sent. */
  detail: string;
  /** Recipients the mail server refused while taking the message for the others. */
  rejected?: string[];
}

/**
 * Sends one e-mail notification for one event, as one message: To the shipment's customer
 * address, Cc the notification's cc, its bcc as blind envelope recipients (see
 * notification-message.ts), through the workspace's SMTP credentials or the global Mailer
 * (NotificationMailer), and records lastEmailSentAt. A notification disabled or deleted since,
 * a shipment that is gone, an unmet condition or no recipient at all sends nothing. Sending
 * failures are thrown, for the worker to retry (PermanentDeliveryError: not retried).
 */
@Injectable()
export class EmailNotificationDelivery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly values: NotificationValues,
    private readonly mailer: NotificationMailer,
    private readonly store: EmailNotificationStore,
  ) {}

  async deliver(notificationId: string, event: DeliverableEvent): Promise<EmailOutcome> {
    const n = await this.store.deliverable(notificationId);
    if (!n) return { sent: false, detail: 'the notification no longer exists' };
    if (!n.enabled) return { sent: false, detail: 'the notification is disabled' };
    if (event.aggregateType !== 'shipment') {
      return { sent: false, detail: `no template data for ${event.aggregateType} events` };
    }
    const facts =
      event.type === EventTypes.shipmentStatusChanged
        ? {
            event: n.event,
            trackingStatus: (event.payload.trackingStatus as string | null) ?? null,
            previousStatus: (event.payload.previousStatus as string | null) ?? null,
          }
        : { event: n.event };
    const subject = await this.values.forShipment(
      this.dataSource,
      event.aggregateId,
      n.tracking_page_id,
      facts,
    );
    if (!subject) return { sent: false, detail: 'the shipment no longer exists' };
    if (!conditionHolds(n.condition, subject.values)) {
      return { sent: false, detail: 'the condition does not hold' };
    }
    const recipients = notificationRecipients(subject.email, n.cc, n.bcc);
    const addresses = allRecipients(recipients);
    if (addresses.length === 0) return { sent: false, detail: 'no recipient' };
    const mail = composeEmail(n, subject.values);
    const receipt = await this.mailer.send(n.workspace_id, notificationMessage(recipients, mail));
    await this.store.markSent(notificationId);
    const rejected = receipt?.rejected ?? [];
    return {
      sent: true,
      detail:
        `sent to ${addresses.length - rejected.length} recipient(s) in one message` +
        (rejected.length ? `; refused by the mail server: ${rejected.join(', ')}` : ''),
      rejected,
    };
  }
}
