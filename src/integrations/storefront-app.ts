import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';

/**
 * The storefront app: the service installed in merchants' shops on the storefront platform. It
 * holds each installation's platform access token; this service only ever knows an
 * installation by its `tokenId`. The production adapter (HttpStorefrontApp) calls the app's
 * REST API; tests run it against a local server speaking the same protocol:
 *
 * - `GET {base}/api/installations/{tokenId}` -> 200 `{id, shop, shopName, email, currency}`,
 *   404 when unknown;
 * - `POST {base}/api/installations/{tokenId}/recurring_charges` with JSON `{name, price,
 *   currency, interval, trialDays, returnUrl, test}` -> 201 `{id, status, confirmationUrl}`
 *   (the merchant approves the charge at confirmationUrl, on the platform).
 *
 * Every call carries `Authorization: Bearer STOREFRONT_APP_API_KEY`.
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

export interface StorefrontApp {
  readonly configured: boolean;
  /** The installation, or null when the app does not know the token. */
  installation(tokenId: string): Promise<StorefrontInstallation | null>;
  createRecurringCharge(tokenId: string, charge: RecurringChargeRequest): Promise<RecurringCharge>;
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
