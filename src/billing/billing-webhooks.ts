import { Injectable, Logger } from '@nestjs/common';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../config/app-config';
import { ApiError, ValidationError, ViolationCodes } from '../common/errors/api-errors';
import { isUuid } from '../hydra/core/identifiers';
import { typeError } from '../hydra/write/denormalizer';
import { TeamLookupStore } from '../teams/team-lookup-store';
import { BillingEventStore, type WebhookEvent } from './billing-event-store';
import { providerSubscriptionOf } from './http-billing-provider';
import { stateFromProvider } from './subscription-state';
import { SubscriptionStore } from './subscription-store';

export type { WebhookEvent } from './billing-event-store';

export const SIGNATURE_HEADER = 'x-billing-signature';

export type WebhookOutcome =
  | 'applied'
  | 'duplicate'
  | 'stale'
  | 'ignored'
  | 'unknown_team'
  | 'unknown_plan'
  | 'unknown_charge';

/** Who sent an event: each sender's event ids are recorded apart. */
export type WebhookSender = 'billing_provider' | 'storefront';

/** `sha256=<hex>` of the HMAC-SHA256 of the raw body with the shared secret. */
export function billingSignature(secret: string, rawBody: Buffer | string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/**
 * Constant-time check of a signature header: the HMAC-SHA256 of the raw body, in hex
 * (`sha256=<hex>` or the bare hex: the billing provider's) or in base64 (the storefront
 * app's, as the storefront platform signs).
 */
export function signatureMatches(
  secret: string,
  rawBody: Buffer,
  header: string | undefined,
  encoding: 'hex' | 'base64' = 'hex',
): boolean {
  if (!header) return false;
  const given = encoding === 'hex' ? header.trim().replace(/^sha256=/i, '') : header.trim();
  const shape = encoding === 'hex' ? /^[0-9a-f]{64}$/i : /^[A-Za-z0-9+/]{43}=$/;
  if (!shape.test(given)) return false;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, encoding));
}

/**
 * When an event happened: Unix seconds or an ISO 8601 date-time; null when absent or out of
 * range (such an event is never judged stale).
 */
export function eventInstant(value: unknown): Date | null {
  let date: Date | null = null;
  if (typeof value === 'number' && Number.isFinite(value)) date = new Date(value * 1000);
  else if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value)) date = new Date(value);
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

/** The event's id (the idempotency key): 422 when blank or too long, 400 when not a string. */
export function eventIdOf(value: unknown): string {
  if (value === undefined || value === null || value === '')
    throw ValidationError.of('id', 'This value should not be blank.', ViolationCodes.notBlank);
  if (typeof value !== 'string') throw typeError('id', 'string', value);
  if (value.length > 255)
    throw ValidationError.of('id', 'This value is too long.', ViolationCodes.tooLong);
  return value;
}

/**
 * The billing provider's webhook (and the event log the storefront app's webhook shares,
 * `recordOnce`): every event is checked against its signature, recorded once by its id (a replay answers `duplicate` and changes nothing) and, when it carries a
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
    private readonly events: BillingEventStore,
    private readonly subscriptions: SubscriptionStore,
    private readonly teams: TeamLookupStore,
  ) {}

  authenticate(rawBody: Buffer | undefined, header: string | undefined): void {
    this.verify(this.config.billingWebhookSecret, rawBody, header, 'hex');
  }

  /** 403 unless `header` signs `rawBody` with `secret` (none configured: always 403). */
  verify(
    secret: string | undefined,
    rawBody: Buffer | undefined,
    header: string | undefined,
    encoding: 'hex' | 'base64',
  ): void {
    if (!secret || !rawBody || !signatureMatches(secret, rawBody, header, encoding)) {
      throw new ApiError(403, 'Invalid or missing webhook signature.');
    }
  }

  async receive(
    body: Record<string, unknown>,
  ): Promise<{ eventId: string; outcome: WebhookOutcome }> {
    const event: WebhookEvent = {
      eventId: eventIdOf(body.id),
      eventType: typeof body.event_type === 'string' ? body.event_type : 'unknown',
      occurredAt: eventInstant(body.occurred_at),
    };
    return this.recordOnce('billing_provider', event, (em) =>
      this.apply(em, event.eventType, event.occurredAt, body.content),
    );
  }

  /**
   * Records the sender's event once and applies it in the same transaction: a replay answers
   * `duplicate` and changes nothing; an event whose effect fails is not recorded (the sender's
   * retry applies it). Outcomes other than applied and ignored are logged.
   */
  async recordOnce(
    sender: WebhookSender,
    event: WebhookEvent,
    apply: (em: EntityManager) => Promise<{ outcome: WebhookOutcome; teamId: string | null }>,
  ): Promise<{ eventId: string; outcome: WebhookOutcome }> {
    const { eventId, eventType } = event;
    return this.dataSource.transaction(async (em) => {
      if (!(await this.events.recordOnce(em, sender, event)))
        return { eventId, outcome: 'duplicate' as const };
      const { outcome, teamId } = await apply(em);
      await this.events.outcome(em, sender, eventId, outcome, teamId);
      if (outcome !== 'applied' && outcome !== 'ignored')
        this.logger.warn(`${sender} event ${eventId} (${eventType}) not applied: ${outcome}`);
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
    const known = await this.subscriptions.findByProviderId(em, sub.id);
    const teamId = known?.teamId ?? (await this.existingTeam(em, customerId));
    if (!teamId) return { outcome: 'unknown_team', teamId: null };
    const current = known ?? (await this.subscriptions.find(em, teamId, true));
    if (current?.lastEventAt && occurredAt && occurredAt < current.lastEventAt)
      return { outcome: 'stale', teamId };
    if (!sub.customerId) sub.customerId = customerId;
    const state = stateFromProvider(sub, eventType === 'payment_failed');
    if (!state) return { outcome: 'unknown_plan', teamId };
    if (eventType === 'subscription_deleted') state.status = 'cancelled';
    await this.subscriptions.save(em, teamId, state, occurredAt);
    return { outcome: 'applied', teamId };
  }

  private async existingTeam(em: EntityManager, id: string | null): Promise<string | null> {
    if (!id || !isUuid(id)) return null;
    return (await this.teams.exists(em, id)) ? id.toLowerCase() : null;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}
