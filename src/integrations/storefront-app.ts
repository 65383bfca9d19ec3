import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/**
 * The storefront app: the service installed in merchants' shops on the storefront platform. It
 * holds each installation's platform access token; this service only ever knows an
 * installation by its `tokenId`. The production adapter (HttpStorefrontApp) calls the app's
 * REST API; tests run it against a local server speaking the same protocol
 * (test/fakes/storefront-app-fake.ts):
 *
 * - `GET {base}/api/installations/{tokenId}` -> 200 `{id, shop, shopName, email, currency}`,
 *   404 when unknown;
 * - `POST {base}/api/installations/{tokenId}/recurring_charges` with JSON `{name, price,
 *   currency, interval, trialDays, returnUrl, test}` -> 201 `{id, status, confirmationUrl}`
 *   (the merchant approves the charge at confirmationUrl, on the platform, which then sends
 *   the merchant's browser to `returnUrl` with `charge_id=<id>` added to its query);
 * - `GET {base}/api/installations/{tokenId}/recurring_charges/{id}` -> 200 the charge
 *   `{id, status, name, price, currency, interval, billingOn, trialEndsOn, test}`, 404 when the
 *   installation or the charge is unknown. `status` is one of CHARGE_STATUSES; `billingOn`
 *   (the next billing date, the end of the period paid for) and `trialEndsOn` are ISO 8601
 *   dates or date-times, or null.
 *
 * Every call carries `Authorization: Bearer STOREFRONT_APP_API_KEY`.
 *
 * Later changes of a charge come from the app as webhooks: `POST {PUBLIC_URL}/billing/
 * storefront/webhook` with JSON `{id, topic: "recurring_charges/update", occurredAt, tokenId,
 * charge}` (`id` the event's, unique; `occurredAt` ISO 8601; `charge` as the GET above
 * answers it) and `X-Storefront-Hmac-Sha256: <base64 of the HMAC-SHA256 of the raw body with
 * STOREFRONT_APP_WEBHOOK_SECRET>` (src/billing/storefront-billing.ts).
 */
export const STOREFRONT_APP = Symbol('StorefrontApp');

export interface StorefrontInstallation {
  id: string;
  /** The shop's domain on the platform, e.g. `acme.storefront.example`. */
  shop: string;
  shopName: string | null;
  email: string | null;
  currency: string | null;
}

export interface RecurringChargeRequest {
  name: string;
  /** Decimal string in `currency`, e.g. "19.00". */
  price: string;
  currency: string;
  interval: 'every_30_days' | 'annual';
  trialDays: number;
  returnUrl: string;
  test: boolean;
}

export interface RecurringCharge {
  id: string;
  status: string | null;
  confirmationUrl: string;
}

/**
 * A charge's statuses, as the platform's: `pending` (waiting for the merchant), `active`
 * (approved, billed), `declined` (refused by the merchant), `expired` (not approved in time),
 * `frozen` (on hold: the shop does not pay), `cancelled` (ended by the app, an uninstall or a
 * newer charge). declined, expired and cancelled are final.
 */
export const CHARGE_STATUSES = [
  'pending',
  'active',
  'declined',
  'expired',
  'frozen',
  'cancelled',
] as const;
export type ChargeStatus = (typeof CHARGE_STATUSES)[number];

/** A charge as the app reports it (its GET answer, a webhook's `charge`). */
export interface RecurringChargeState {
  id: string;
  status: ChargeStatus;
  name: string | null;
  price: string | null;
  currency: string | null;
  interval: string | null;
  /** The next billing date: the end of the period paid for. */
  billingOn: Date | null;
  trialEndsOn: Date | null;
  test: boolean;
}

/**
 * A charge object of the protocol; null when it has no id or a status that is not one of
 * CHARGE_STATUSES.
 */
export function chargeStateOf(value: unknown): RecurringChargeState | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const c = value as Record<string, unknown>;
  const status = CHARGE_STATUSES.find((s) => s === c.status);
  if (typeof c.id !== 'string' || !c.id || c.id.length > 255 || !status) return null;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    id: c.id,
    status,
    name: text(c.name),
    price: text(c.price),
    currency: text(c.currency),
    interval: text(c.interval),
    billingOn: dateOf(c.billingOn),
    trialEndsOn: dateOf(c.trialEndsOn),
    test: c.test === true,
  };
}

/** An ISO 8601 date or date-time; null when absent or not one. */
function dateOf(v: unknown): Date | null {
  if (typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(v)) return null;
  const date = new Date(v);
  return Number.isNaN(date.getTime()) ? null : date;
}

export interface StorefrontApp {
  readonly configured: boolean;
  /** The installation, or null when the app does not know the token. */
  installation(tokenId: string): Promise<StorefrontInstallation | null>;
  createRecurringCharge(tokenId: string, charge: RecurringChargeRequest): Promise<RecurringCharge>;
  /** The charge's current state, or null when the app knows no such charge (or installation). */
  recurringCharge(tokenId: string, chargeId: string): Promise<RecurringChargeState | null>;
}

/** The storefront app refused the request (4xx other than 404). */
export class StorefrontAppRefusal extends Error {}

/** The storefront app could not be reached or failed (network, timeout, 5xx, bad answer). */
export class StorefrontAppUnavailable extends Error {}

@Injectable()
export class HttpStorefrontApp implements StorefrontApp {
  private readonly base: string | undefined;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(config: AppConfig) {
    this.base = config.storefrontAppUrl?.replace(/\/+$/, '');
    this.apiKey = config.storefrontAppApiKey;
    this.timeoutMs = config.outboundHttpTimeoutMs;
  }

  get configured(): boolean {
    return Boolean(this.base && this.apiKey);
  }

  async installation(tokenId: string): Promise<StorefrontInstallation | null> {
    const { status, body } = await this.call(
      'GET',
      `/api/installations/${encodeURIComponent(tokenId)}`,
    );
    if (status === 404) return null;
    const shop = typeof body.shop === 'string' ? body.shop : null;
    if (!shop) throw new StorefrontAppUnavailable('storefront app answer without shop');
    return {
      id: typeof body.id === 'string' ? body.id : tokenId,
      shop,
      shopName: typeof body.shopName === 'string' ? body.shopName : null,
      email: typeof body.email === 'string' ? body.email : null,
      currency: typeof body.currency === 'string' ? body.currency : null,
    };
  }

  async createRecurringCharge(
    tokenId: string,
    charge: RecurringChargeRequest,
  ): Promise<RecurringCharge> {
    const { status, body } = await this.call(
      'POST',
      `/api/installations/${encodeURIComponent(tokenId)}/recurring_charges`,
      charge,
    );
    if (status === 404) throw new StorefrontAppRefusal('The storefront installation is unknown.');
    if (typeof body.confirmationUrl !== 'string' || typeof body.id !== 'string')
      throw new StorefrontAppUnavailable('storefront app answer without confirmationUrl');
    return {
      id: body.id,
      status: typeof body.status === 'string' ? body.status : null,
      confirmationUrl: body.confirmationUrl,
    };
  }

  async recurringCharge(tokenId: string, chargeId: string): Promise<RecurringChargeState | null> {
    const { status, body } = await this.call(
      'GET',
      `/api/installations/${encodeURIComponent(tokenId)}/recurring_charges/${encodeURIComponent(chargeId)}`,
    );
    if (status === 404) return null;
    const charge = chargeStateOf(body);
    if (!charge || charge.id !== chargeId)
      throw new StorefrontAppUnavailable('storefront app answered something else than the charge');
    return charge;
  }

  private async call(
    method: 'GET' | 'POST',
    path: string,
    payload?: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> }> {
    if (!this.configured) throw new StorefrontAppUnavailable('storefront app not configured');
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.apiKey}`,
          Accept: 'application/json',
          ...(payload ? { 'Content-Type': 'application/json' } : {}),
        },
        body: payload ? JSON.stringify(payload) : undefined,
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new StorefrontAppUnavailable(`storefront app unreachable: ${String(error)}`);
    }
    const text = await response.text();
    if (response.status === 404) return { status: 404, body: {} };
    if (response.status >= 500) throw new StorefrontAppUnavailable(`answered ${response.status}`);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      throw new StorefrontAppUnavailable('storefront app answered something else than JSON');
    }
    const object =
      body && typeof body === 'object' && !Array.isArray(body)
        ? (body as Record<string, unknown>)
        : {};
    if (!response.ok) {
      const message = typeof object.message === 'string' ? object.message : '';
      throw new StorefrontAppRefusal(
        message || `The storefront app refused the request (${response.status}).`,
      );
    }
    return { status: response.status, body: object };
  }
}
