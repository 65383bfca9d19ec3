import { Injectable, Logger } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ApiError, ValidationError, ViolationCodes } from '../hydra/errors/api-errors';
import { isUuid } from '../hydra/filters/filter';
import { typeError } from '../hydra/write/denormalizer';
import { providerSubscriptionOf } from './http-billing-provider';
import { stateFromProvider } from './subscription-state';
import { findByProviderId, findSubscription, saveSubscription } from './subscriptions';

export const SIGNATURE_HEADER = 'x-billing-signature';

export type WebhookOutcome =
  'applied' | 'duplicate' | 'stale' | 'ignored' | 'unknown_team' | 'unknown_plan';

/** `sha256=<hex>` of the HMAC-SHA256 of the raw body with the shared secret. */
export function billingSignature(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Constant-time check of a signature header (`sha256=<hex>`, or the bare hex). */
export function signatureMatches(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
): boolean {
  if (!header) return false;
  const given = header.trim().replace(/^sha256=/i, '');
  if (!/^[0-9a-f]{64}$/i.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, 'hex'));
}

/**
 * The billing provider's webhook: every event is checked against its signature, recorded once
 * by its id (a replay answers `duplicate` and changes nothing) and, when it carries a
 * subscription, applied to the team's subscription in the same transaction, so an event that
 * fails to apply is not recorded and the provider's retry applies it. Events older than the
 * last one applied to a subscription (`occurred_at`) are recorded as `stale` and not applied:
 * providers do not guarantee order.
 *
 * The team is found by the subscription's provider id, else by the customer id (checkouts
 * create customers with the team's id).
 */
@Injectable()
export class BillingWebhooks {
  private readonly logger = new Logger(BillingWebhooks.name);

  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  authenticate(rawBody: Buffer | undefined, header: string | undefined): void {
    const secret = this.config.billingWebhookSecret;
    if (!secret || !rawBody || !signatureMatches(secret, rawBody, header)) {
      throw new ApiError(403, 'Invalid or missing webhook signature.');
    }
  }

  async receive(body: Record<string, unknown>): Promise<{ eventId: string; outcome: string }> {
    const eventId = body.id;
    if (eventId === undefined || eventId === null || eventId === '')
      throw ValidationError.of('id', 'This value should not be blank.', ViolationCodes.notBlank);
    if (typeof eventId !== 'string') throw typeError('id', 'string', eventId);
    if (eventId.length > 255)
      throw ValidationError.of('id', 'This value is too long.', ViolationCodes.tooLong);
    const eventType = typeof body.event_type === 'string' ? body.event_type : 'unknown';
    const occurredAt =
      typeof body.occurred_at === 'number' && Number.isFinite(body.occurred_at)
        ? new Date(body.occurred_at * 1000)
        : null;
    return this.dataSource.transaction(async (em) => {
      const inserted = await em.query(
        `INSERT INTO billing_webhook_event (event_id, event_type, occurred_at, outcome)
         VALUES ($1, $2, $3, 'pending') ON CONFLICT (event_id) DO NOTHING RETURNING event_id`,
        [eventId, eventType, occurredAt],
      );
      if (inserted.length === 0) return { eventId, outcome: 'duplicate' };
      const { outcome, teamId } = await this.apply(em, eventType, occurredAt, body.content);
      await em.query(
        `UPDATE billing_webhook_event SET outcome = $2, team_id = $3 WHERE event_id = $1`,
        [eventId, outcome, teamId],
      );
      if (outcome !== 'applied' && outcome !== 'ignored')
        this.logger.warn(`billing event ${eventId} (${eventType}) not applied: ${outcome}`);
      return { eventId, outcome };
    });
  }

  private async apply(
    em: EntityManager,
    eventType: string,
    occurredAt: Date | null,
    content: unknown,
  ): Promise<{ outcome: WebhookOutcome; teamId: string | null }> {
    const c = isObject(content) ? content : {};
    if (!isObject(c.subscription)) return { outcome: 'ignored', teamId: null };
    const sub = providerSubscriptionOf(c.subscription);
    if (!sub.id) return { outcome: 'ignored', teamId: null };
    const customerId =
      sub.customerId ??
      (isObject(c.customer) && typeof c.customer.id === 'string' ? c.customer.id : null);
    const known = await findByProviderId(em, sub.id);
    const teamId = known?.teamId ?? (await this.existingTeam(em, customerId));
    if (!teamId) return { outcome: 'unknown_team', teamId: null };
    const current = known ?? (await findSubscription(em, teamId, true));
    if (current?.lastEventAt && occurredAt && occurredAt < current.lastEventAt)
      return { outcome: 'stale', teamId };
    if (!sub.customerId) sub.customerId = customerId;
    const state = stateFromProvider(sub, eventType === 'payment_failed');
    if (!state) return { outcome: 'unknown_plan', teamId };
    if (eventType === 'subscription_deleted') state.status = 'cancelled';
    await saveSubscription(em, teamId, state, occurredAt);
    return { outcome: 'applied', teamId };
  }

  private async existingTeam(em: EntityManager, id: string | null): Promise<string | null> {
    if (!id || !isUuid(id)) return null;
    const rows = await em.query(`SELECT id FROM team WHERE id = $1`, [id]);
    return rows.length ? rows[0].id : null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
