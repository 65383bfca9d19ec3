import { Injectable } from '@nestjs/common';
import { query, type SqlRunner } from '../database/query';

/** An authenticated event, as recorded in `billing_webhook_event`. */
export interface WebhookEvent {
  eventId: string;
  eventType: string;
  occurredAt: Date | null;
}

/** The billing_webhook_event table's SQL: each sender's events, recorded once by id. */
@Injectable()
export class BillingEventStore {
  /** Records the event as pending; false when the sender's event id is recorded already. */
  async recordOnce(runner: SqlRunner, sender: string, event: WebhookEvent): Promise<boolean> {
    const rows = await query(
      runner,
      `INSERT INTO billing_webhook_event (provider, event_id, event_type, occurred_at, outcome)
       VALUES ($1, $2, $3, $4, 'pending') ON CONFLICT (provider, event_id) DO NOTHING
       RETURNING event_id`,
      [sender, event.eventId, event.eventType, event.occurredAt],
    );
    return rows.length > 0;
  }

  async outcome(
    runner: SqlRunner,
    sender: string,
    eventId: string,
    outcome: string,
    teamId: string | null,
  ): Promise<void> {
    await query(
      runner,
      `UPDATE billing_webhook_event SET outcome = $3, team_id = $4
        WHERE provider = $1 AND event_id = $2`,
      [sender, eventId, outcome, teamId],
    );
  }
}
