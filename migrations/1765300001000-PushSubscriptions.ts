import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Push subscriptions that lapse (UPS Track Alert, 14 days), per shipment's remote tracking
 * (src/tracking/providers/remote/push-subscription-rules.ts):
 * - push_subscribed_at: when the provider last accepted the number's subscription (a number
 *   still tracked is subscribed again before it lapses);
 * - push_refused_at: when it last refused it (not asked again for a subscription's lifetime).
 * Both are cleared when the shipment moves to other credentials or another number.
 */
export class PushSubscriptions1765300001000 implements MigrationInterface {
  name = 'PushSubscriptions1765300001000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipment_remote_tracking ADD COLUMN push_subscribed_at timestamptz,
                   ADD COLUMN push_refused_at timestamptz`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`ALTER TABLE shipment_remote_tracking DROP COLUMN push_subscribed_at,
                   DROP COLUMN push_refused_at`);
  }
}
