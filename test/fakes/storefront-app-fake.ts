import { createHmac, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * The storefront app's API as src/integrations/storefront-app.ts documents it: installations by
 * token id, recurring charges (created, read), every call with the bearer key. A test plays the
 * merchant (`approve`, `decline`, `setStatus`), follows the platform's redirect back to the
 * charge's return URL (`returnPath`), and sends the app's signed charge webhooks (`webhook`).
 */

export interface FakeCharge {
  id: string;
  tokenId: string;
  /** What the service asked for (`{name, price, currency, interval, trialDays, returnUrl, test}`). */
  request: Record<string, unknown>;
  status: 'pending' | 'active' | 'declined' | 'expired' | 'frozen' | 'cancelled';
  billingOn: string | null;
  trialEndsOn: string | null;
}

export class FakeStorefrontApp {
  readonly charges: FakeCharge[] = [];
  /** Every request received, `METHOD /path`. */
  readonly calls: string[] = [];
  /** Answers 500 to everything while true (the app is down). */
  down = false;
  private server!: Server;
  private base = '';
  private eventSeq = 0;
  private readonly tag = randomBytes(4).toString('hex');

  constructor(
    readonly apiKey: string,
    readonly installations: Record<string, Record<string, unknown>>,
    readonly webhookSecret = '',
  ) {}

  get url(): string {
    return this.base;
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.base;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  last(): FakeCharge {
    const charge = this.charges[this.charges.length - 1];
    if (!charge) throw new Error('no charge created');
    return charge;
  }

  charge(id: string): FakeCharge {
    const charge = this.charges.find((c) => c.id === id);
    if (!charge) throw new Error(`no charge ${id}`);
    return charge;
  }

  /** The merchant approves the charge: active, billed next on `billingOn` (in 30 days). */
  approve(id: string, billingOn = daysFromNow(30)): FakeCharge {
    return this.setStatus(id, 'active', { billingOn });
  }

  decline(id: string): FakeCharge {
    return this.setStatus(id, 'declined');
  }

  setStatus(
    id: string,
    status: FakeCharge['status'],
    extra: Partial<Pick<FakeCharge, 'billingOn' | 'trialEndsOn'>> = {},
  ): FakeCharge {
    return Object.assign(this.charge(id), { status }, extra);
  }

  /**
   * Where the platform sends the merchant's browser once the charge is decided: the return URL
   * the service gave with `charge_id` added (path and query, for supertest).
   */
  returnPath(id: string, chargeId = id): string {
    const url = new URL(String(this.charge(id).request.returnUrl));
    url.searchParams.set('charge_id', chargeId);
    return `${url.pathname}${url.search}`;
  }

  /** A charge as the app's API and webhooks show it. */
  view(charge: FakeCharge): Record<string, unknown> {
    const r = charge.request;
    return {
      id: charge.id,
      status: charge.status,
      name: r.name,
      price: r.price,
      currency: r.currency,
      interval: r.interval,
      billingOn: charge.billingOn,
      trialEndsOn: charge.trialEndsOn,
      test: r.test,
    };
  }

  /**
   * The app's webhook for the charge's current state: the raw body and its signature header
   * (`X-Storefront-Hmac-Sha256`, base64), signed with `secret` (the configured one by default).
   */
  webhook(
    id: string,
    options: { eventId?: string; occurredAt?: Date; secret?: string } = {},
  ): { raw: string; signature: string; eventId: string } {
    const charge = this.charge(id);
    const eventId = options.eventId ?? `evt_${this.tag}_${++this.eventSeq}`;
    const raw = JSON.stringify({
      id: eventId,
      topic: 'recurring_charges/update',
      occurredAt: (options.occurredAt ?? new Date()).toISOString(),
      tokenId: charge.tokenId,
      charge: this.view(charge),
    });
    const signature = createHmac('sha256', options.secret ?? this.webhookSecret)
      .update(raw)
      .digest('base64');
    return { raw, signature, eventId };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    this.calls.push(`${req.method} ${req.url}`);
    if (this.down) return send(500, { message: 'down' });
    if (req.headers.authorization !== `Bearer ${this.apiKey}`)
      return send(401, { message: 'bad key' });
    const m = /^\/api\/installations\/([^/]+)(?:\/recurring_charges(?:\/([^/]+))?)?$/.exec(
      req.url!,
    );
    const tokenId = m ? decodeURIComponent(m[1]) : '';
    const installation = m ? this.installations[tokenId] : undefined;
    if (!m || !installation) return send(404, { message: 'not found' });
    const isCharges = req.url!.includes('/recurring_charges');
    if (!isCharges && req.method === 'GET') return send(200, installation);
    if (isCharges && !m[2] && req.method === 'POST') {
      const request = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      const charge: FakeCharge = {
        id: `charge_${this.tag}_${this.charges.length + 1}`,
        tokenId,
        request,
        status: 'pending',
        billingOn: null,
        trialEndsOn: null,
      };
      this.charges.push(charge);
      return send(201, {
        id: charge.id,
        status: charge.status,
        confirmationUrl: `https://${String(installation.shop)}/admin/charges/${charge.id}/confirm`,
      });
    }
    if (m[2] && req.method === 'GET') {
      const charge = this.charges.find(
        (c) => c.id === decodeURIComponent(m[2]) && c.tokenId === tokenId,
      );
      return charge ? send(200, this.view(charge)) : send(404, { message: 'not found' });
    }
    send(404, { message: 'not found' });
  }
}

/** An ISO date `days` from today (UTC), as the platform's `billingOn`. */
export function daysFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}
