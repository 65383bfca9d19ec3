import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { EventTypes } from '../events/event-types';
import { MAILER, type Mailer } from '../mail/mailer';
import { composeEmail } from './email-composer';
import { conditionHolds } from './notification-condition';
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
}

/**
 * Sends one e-mail notification for one event through the Mailer port: to the shipment's
 * customer address, then each cc and bcc address (one message each, so no recipient sees
 * another), and records lastEmailSentAt. A notification disabled or deleted since, a shipment
 * that is gone, an unmet condition or no recipient at all sends nothing. Mailer failures are
 * thrown, for the worker to retry.
 */
@Injectable()
export class EmailNotificationDelivery {
  constructor(
    private readonly dataSource: DataSource,
    private readonly values: NotificationValues,
    @Inject(MAILER) private readonly mailer: Mailer,
  ) {}

  async deliver(notificationId: string, event: DeliverableEvent): Promise<EmailOutcome> {
    const rows: Array<{
      event: string;
      enabled: boolean;
      condition: string | null;
      subject: string | null;
      body: string | null;
      cc: string[];
      bcc: string[];
      tracking_page_id: string | null;
    }> = await this.dataSource.query(
      `SELECT event, enabled, condition, subject, body, cc, bcc, tracking_page_id
         FROM email_notification WHERE id = $1`,
      [notificationId],
    );
    const n = rows[0];
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
      this.dataSource.manager,
      event.aggregateId,
      n.tracking_page_id,
      facts,
    );
    if (!subject) return { sent: false, detail: 'the shipment no longer exists' };
    if (!conditionHolds(n.condition, subject.values)) {
      return { sent: false, detail: 'the condition does not hold' };
    }
    const recipients = [
      ...new Set([subject.email, ...n.cc, ...n.bcc].filter((e): e is string => !!e)),
    ];
    if (recipients.length === 0) return { sent: false, detail: 'no recipient' };
    const mail = composeEmail(n, subject.values);
    for (const to of recipients) {
      await this.mailer.send({ to, subject: mail.subject, text: mail.text, html: mail.html });
    }
    await this.dataSource.query(
      `UPDATE email_notification SET last_email_sent_at = now() WHERE id = $1`,
      [notificationId],
    );
    return { sent: true, detail: `sent to ${recipients.length} recipient(s)` };
  }
}
