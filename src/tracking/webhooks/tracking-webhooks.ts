import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { tokenClient } from '../../auth/token-client';
import { ApiError, NotFoundError } from '../../common/errors/api-errors';
import { Clock } from '../clock';
import { adapterFor } from '../providers/remote/adapters';
import { ProviderCredentialsStore } from '../providers/remote/provider-credentials-store';
import { remoteTrackingState } from '../providers/remote/remote-tracking-state';
import { TrackingService, type PushedResult } from '../tracking-service/tracking.service';
import { PushThrottle } from './push-throttle';

/** What the receiver answers: 200 when something was applied, else 202. */
export interface PushReceipt {
  /** Updates the push carried. */
  received: number;
  /** Shipments updated (a number tracked in several workspaces counts each). */
  applied: number;
  /** Numbers no shipment tracked by these credentials has. */
  unknown: string[];
}

/** The token endpoint's answer: RFC 6749 bodies, whatever the outcome. */
export interface PushTokenReceipt {
  status: 200 | 400 | 401;
  body:
    | { access_token: string; token_type: 'Bearer'; expires_in: number }
    | { error: 'invalid_request' | 'invalid_client' | 'unsupported_grant_type' };
}

/**
 * Receives a provider's push for one credentials record: checks the provider's own signature
 * over the raw body (adapter.verifyPush), maps the payload (adapter.parsePush), finds the
 * shipments these credentials track under those numbers and applies the results through the
 * same writer as a refresh (TrackingService.applyPushed).
 */
@Injectable()
export class TrackingWebhooks {
  constructor(
    private readonly dataSource: DataSource,
    private readonly credentials: ProviderCredentialsStore,
    private readonly tracking: TrackingService,
    private readonly clock: Clock,
    private readonly throttle: PushThrottle,
  ) {}

  /**
   * The token URL of providers that get an OAuth token from us before pushing (client
   * credentials, RFC 6749 4.4; adapter.issuePushToken): client authentication by HTTP Basic,
   * else the `client_id` / `client_secret` fields; a `client_id` field beside Basic must name
   * the same client (400 invalid_request otherwise). A wrong client spends the push failure
   * budgets (PushThrottle), like a wrong push signature.
   */
  async issueToken(
    provider: string,
    credentialsKey: string,
    authorization: string | undefined,
    fields: Readonly<Record<string, unknown>>,
    clientAddress: string,
  ): Promise<PushTokenReceipt> {
    const adapter = adapterFor(provider);
    if (!adapter?.issuePushToken) {
      throw new NotFoundError(`No tracking provider "${provider}" gets push tokens here.`);
    }
    const route = await this.credentials.byKey(credentialsKey);
    if (!route || route.credentials.type !== adapter.type) {
      throw new NotFoundError(`No ${provider} credentials "${credentialsKey}".`);
    }
    const key = route.credentials.id;
    await this.throttle.assertOpen(key, clientAddress);
    const field = (name: string) => (typeof fields[name] === 'string' ? fields[name] : null);
    // One client per request, the one the rate limit counted (RFC 6749 2.3).
    const { basic, invalid } = tokenClient(authorization, fields);
    if (invalid) return { status: 400, body: { error: 'invalid_request' } };
    const ask = (client: { id: string; secret: string } | null) =>
      adapter.issuePushToken!(route.credentials, {
        clientId: client?.id ?? field('client_id'),
        clientSecret: client?.secret ?? field('client_secret'),
        grantType: field('grant_type'),
        now: this.clock.now(),
      });
    // RFC 6749 form-encodes Basic credentials; many clients send them as they are.
    let answer = ask(basic && { id: basic.id, secret: basic.secret });
    if ('error' in answer && answer.error === 'invalid_client' && basic?.decoded) {
      answer = ask(basic.decoded);
    }
    if ('error' in answer) {
      if (answer.error === 'invalid_client') await this.throttle.spendFailure(key, clientAddress);
      return { status: answer.error === 'invalid_client' ? 401 : 400, body: answer };
    }
    return {
      status: 200,
      body: {
        access_token: answer.accessToken,
        token_type: 'Bearer',
        expires_in: answer.expiresInSeconds,
      },
    };
  }

  /**
   * A push: a wrong or missing signature is 401 and spends the failure budgets (PushThrottle);
   * while one is spent, every push for these credentials (or from this address) is 429.
   */
  async receive(
    provider: string,
    credentialsKey: string,
    headers: Readonly<Record<string, string | undefined>>,
    rawBody: Buffer,
    clientAddress: string,
  ): Promise<PushReceipt> {
    const adapter = adapterFor(provider);
    if (!adapter?.verifyPush || !adapter.parsePush) {
      throw new NotFoundError(`No tracking provider "${provider}" receives pushes.`);
    }
    const route = await this.credentials.byKey(credentialsKey);
    if (!route || route.credentials.type !== adapter.type) {
      throw new NotFoundError(`No ${provider} credentials "${credentialsKey}".`);
    }
    await this.throttle.assertOpen(route.credentials.id, clientAddress);
    if (
      !adapter.verifyPush(route.credentials, { headers, rawBody, receivedAt: this.clock.now() })
    ) {
      await this.throttle.spendFailure(route.credentials.id, clientAddress);
      throw new ApiError(401, `The ${provider} signature of this push is missing or wrong.`);
    }
    let body: unknown;
    try {
      body = JSON.parse(rawBody.toString('utf8'));
    } catch {
      body = null;
    }
    const updates = adapter.parsePush(body);
    const numbers = [...new Set(updates.map((u) => u.trackingNumber))];
    const tracked = await remoteTrackingState.findByNumbers(
      this.dataSource,
      route.credentials.id,
      numbers,
    );
    const byNumber = new Map<string, string[]>();
    for (const t of tracked) {
      byNumber.set(t.trackingNumber, [...(byNumber.get(t.trackingNumber) ?? []), t.shipmentId]);
    }
    const pushed: PushedResult[] = updates
      .filter((u) => byNumber.has(u.trackingNumber))
      .map((u) => ({ shipmentIds: byNumber.get(u.trackingNumber)!, result: u.result }));
    const outcomes = pushed.length === 0 ? [] : await this.tracking.applyPushed(route, pushed);
    const applied = outcomes.filter((o) => o.applied).map((o) => o.shipmentId);
    await remoteTrackingState.markPushed(this.dataSource, applied, this.clock.now());
    return {
      received: updates.length,
      applied: applied.length,
      unknown: numbers.filter((n) => !byNumber.has(n)),
    };
  }
}
