import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import {
  BillingProvider,
  BillingProviderRefusal,
  BillingProviderUnavailable,
  Estimate,
  HostedPage,
  PortalSession,
  ProviderSubscription,
  SubscriptionItem,
} from './billing-provider';

type Json = Record<string, unknown>;

/**
 * The billing provider over its REST API, Chargebee v2 style: `POST {base}/api/v2/...` with
 * form-encoded bodies (`subscription_items[item_price_id][0]=...`), HTTP Basic authentication
 * with the API key as user name, JSON answers wrapping the object (`{"hosted_page": {...}}`),
 * errors as 4xx/5xx with `{"message", "api_error_code"}`.
 *
 * Calls used: hosted_pages/checkout_new_for_items, hosted_pages/checkout_existing_for_items,
 * portal_sessions, subscriptions/{id}/update_for_items, estimates/create_subscription_for_items,
 * estimates/update_subscription_for_items.
 */
@Injectable()
export class HttpBillingProvider implements BillingProvider {
  private readonly base: string | undefined;
  private readonly apiKey: string | undefined;
  private readonly timeoutMs: number;

  constructor(config: AppConfig) {
    this.base = config.billingProviderUrl?.replace(/\/+$/, '');
    this.apiKey = config.billingProviderApiKey;
    this.timeoutMs = config.outboundHttpTimeoutMs;
  }

  get configured(): boolean {
    return Boolean(this.base && this.apiKey);
  }

  async checkoutNew(input: {
    customerId: string;
    customerEmail: string | null;
    items: SubscriptionItem[];
    redirectUrl: string | null;
  }): Promise<HostedPage> {
    const form = itemsForm(input.items);
    form.push(['customer[id]', input.customerId]);
    if (input.customerEmail) form.push(['customer[email]', input.customerEmail]);
    if (input.redirectUrl) form.push(['redirect_url', input.redirectUrl]);
    const answer = await this.post('/api/v2/hosted_pages/checkout_new_for_items', form);
    return hostedPageOf(objectAt(answer, 'hosted_page'));
  }

  async checkoutExisting(input: {
    subscriptionId: string;
    items: SubscriptionItem[];
    redirectUrl: string | null;
  }): Promise<HostedPage> {
    const form = itemsForm(input.items);
    form.push(['subscription[id]', input.subscriptionId], ['replace_items_list', 'true']);
    if (input.redirectUrl) form.push(['redirect_url', input.redirectUrl]);
    const answer = await this.post('/api/v2/hosted_pages/checkout_existing_for_items', form);
    return hostedPageOf(objectAt(answer, 'hosted_page'));
  }

  async createPortalSession(
    customerId: string,
    redirectUrl: string | null,
  ): Promise<PortalSession> {
    const form: Array<[string, string]> = [['customer[id]', customerId]];
    if (redirectUrl) form.push(['redirect_url', redirectUrl]);
    const s = objectAt(await this.post('/api/v2/portal_sessions', form), 'portal_session');
    return {
      id: str(s.id),
      token: str(s.token),
      access_url: str(s.access_url),
      status: str(s.status),
      created_at: num(s.created_at),
      expires_at: num(s.expires_at),
      object: str(s.object),
      customer_id: str(s.customer_id),
    };
  }

  async changeSubscription(
    subscriptionId: string,
    items: SubscriptionItem[],
    endOfTerm: boolean,
  ): Promise<ProviderSubscription> {
    const form = itemsForm(items);
    form.push(['replace_items_list', 'true'], ['end_of_term', String(endOfTerm)]);
    const answer = await this.post(
      `/api/v2/subscriptions/${encodeURIComponent(subscriptionId)}/update_for_items`,
      form,
    );
    return providerSubscriptionOf(objectAt(answer, 'subscription'));
  }

  async estimateNew(customerId: string, items: SubscriptionItem[]): Promise<Estimate> {
    const form = itemsForm(items);
    form.push(['customer[id]', customerId]);
    return estimateOf(
      objectAt(
        await this.post('/api/v2/estimates/create_subscription_for_items', form),
        'estimate',
      ),
    );
  }

  async estimateChange(subscriptionId: string, items: SubscriptionItem[]): Promise<Estimate> {
    const form = itemsForm(items);
    form.push(['subscription[id]', subscriptionId], ['replace_items_list', 'true']);
    return estimateOf(
      objectAt(
        await this.post('/api/v2/estimates/update_subscription_for_items', form),
        'estimate',
      ),
    );
  }

  private async post(path: string, form: Array<[string, string]>): Promise<Json> {
    if (!this.configured) throw new BillingProviderUnavailable('billing provider not configured');
    let response: Response;
    try {
      response = await fetch(`${this.base}${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Basic ${Buffer.from(`${this.apiKey}:`).toString('base64')}`,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
        },
        body: new URLSearchParams(form).toString(),
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'error',
      });
    } catch (error) {
      throw new BillingProviderUnavailable(`billing provider unreachable: ${String(error)}`);
    }
    const text = await response.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    if (response.status >= 500 || (response.ok && !isObject(body))) {
      throw new BillingProviderUnavailable(`billing provider answered ${response.status}`);
    }
    if (!response.ok) {
      const message = isObject(body) && typeof body.message === 'string' ? body.message : '';
      throw new BillingProviderRefusal(
        message || `The billing provider refused the request (${response.status}).`,
        response.status,
      );
    }
    return body as Json;
  }
}

/** Chargebee's indexed item parameters. */
function itemsForm(items: SubscriptionItem[]): Array<[string, string]> {
  const form: Array<[string, string]> = [];
  items.forEach((item, i) => {
    form.push([`subscription_items[item_price_id][${i}]`, item.itemPriceId]);
    form.push([`subscription_items[quantity][${i}]`, String(item.quantity)]);
  });
  return form;
}

function isObject(v: unknown): v is Json {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function objectAt(body: Json, key: string): Json {
  const v = body[key];
  if (!isObject(v)) throw new BillingProviderUnavailable(`billing provider answer without ${key}`);
  return v;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function hostedPageOf(p: Json): HostedPage {
  return {
    id: str(p.id),
    type: str(p.type),
    url: str(p.url),
    state: str(p.state),
    embed: typeof p.embed === 'boolean' ? p.embed : null,
    created_at: num(p.created_at),
    expires_at: num(p.expires_at),
    updated_at: num(p.updated_at),
    resource_version: num(p.resource_version),
    object: str(p.object),
  };
}

/** A provider subscription object (API answer or webhook `content.subscription`). */
export function providerSubscriptionOf(s: Json): ProviderSubscription {
  const items = Array.isArray(s.subscription_items) ? s.subscription_items : [];
  return {
    id: str(s.id) ?? '',
    customerId: str(s.customer_id),
    status: str(s.status) ?? '',
    items: items.filter(isObject).map((i) => ({
      itemPriceId: str(i.item_price_id) ?? '',
      quantity: num(i.quantity) ?? 1,
      itemType: str(i.item_type),
    })),
    currentTermEnd: num(s.current_term_end),
    trialEnd: num(s.trial_end),
    dueInvoicesCount: num(s.due_invoices_count) ?? 0,
    hasScheduledChanges: s.has_scheduled_changes === true,
    hasCoupon: Array.isArray(s.coupons) && s.coupons.length > 0,
    billingPeriod: num(s.billing_period),
    billingPeriodUnit: str(s.billing_period_unit),
  };
}

function estimateOf(e: Json): Estimate {
  const sub = isObject(e.subscription_estimate) ? e.subscription_estimate : {};
  const invoice = isObject(e.next_invoice_estimate)
    ? e.next_invoice_estimate
    : isObject(e.invoice_estimate)
      ? e.invoice_estimate
      : {};
  const lines = Array.isArray(invoice.line_items) ? invoice.line_items : [];
  return {
    createdAt: num(e.created_at),
    nextBillingAt: num(sub.next_billing_at),
    nextTotal: num(invoice.total),
    currencyCode: str(invoice.currency_code) ?? str(sub.currency_code),
    items: lines.filter(isObject).map((l) => ({
      description: str(l.description),
      entityId: str(l.entity_id),
      quantity: num(l.quantity),
      amount: num(l.amount),
    })),
  };
}
